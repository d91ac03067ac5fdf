"""The arguments hash binds approvals and idempotency keys to exactly these arguments."""

from __future__ import annotations

from typing import Any

from hypothesis import given, strategies as st

from custom_components.linn.guard import args_hash, canonical_json

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=20))
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
argument_dicts = st.dictionaries(st.text(max_size=10), values, max_size=6)


@given(argument_dicts)
def test_key_order_does_not_change_the_hash(arguments: dict[str, Any]) -> None:
    reordered = dict(reversed(list(arguments.items())))
    assert args_hash("set_volume", arguments) == args_hash("set_volume", reordered)


@given(argument_dicts, st.text(min_size=1, max_size=10), values)
def test_a_changed_value_changes_the_hash(
    arguments: dict[str, Any], key: str, new_value: Any
) -> None:
    changed = {**arguments, key: new_value}
    if canonical_json(changed) != canonical_json(arguments):
        assert args_hash("t", changed) != args_hash("t", arguments)


def test_tool_name_is_bound() -> None:
    assert args_hash("set_volume", {"volume": 30}) != args_hash("set_volume_limit", {"volume": 30})


def test_bool_and_int_differ_but_integral_floats_do_not() -> None:
    assert args_hash("t", {"v": True}) != args_hash("t", {"v": 1})
    assert args_hash("t", {"v": 30}) == args_hash("t", {"v": 30.0})
    assert args_hash("t", {"v": 30}) != args_hash("t", {"v": 30.5})
