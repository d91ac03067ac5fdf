"""Budgets and the local fallback: a used-up budget is a spoken refusal before any model
call, then Home Assistant's local intents answer in limited mode; so do API errors,
timeouts and a rejected key. Local intents need the strict local wording."""

from ..case import (
    LIVING,
    ApiError,
    Case,
    Expect,
    Setup,
    Stall,
    Turn,
    call,
    read,
    says,
    use,
)

CATEGORY = "budget_fallback"

LIMITED = "The assistant is in limited mode right now."
LOCAL_VOLUME = "set Living Room volume to 20"
LOCAL_CALL = (call("set_volume", player=LIVING, volume=20),)
"""The local intent's volume_set reaches the player's gate: the guard decides and audits it."""
HELLO = Turn("hello", (says("Hello there."),), says=("Hello there.",))

CASES = [
    Case(
        "budget_conversation_tokens",
        CATEGORY,
        (
            HELLO,
            Turn(
                LOCAL_VOLUME,
                calls=LOCAL_CALL,
                code_says=("This conversation has used up its assistant budget.", LIMITED),
            ),
        ),
        setup=Setup(assistant={"budget_conversation_tokens": 10}),
        expect=Expect(players={LIVING: {"volume": 20}}),
    ),
    Case(
        "budget_conversation_cost",
        CATEGORY,
        (
            HELLO,
            Turn(
                LOCAL_VOLUME,
                calls=LOCAL_CALL,
                code_says=("This conversation has used up its assistant budget.", LIMITED),
            ),
        ),
        setup=Setup(assistant={"budget_conversation_cost": 0.000001}),
        expect=Expect(players={LIVING: {"volume": 20}}),
    ),
    Case(
        "budget_day_tokens",
        CATEGORY,
        (
            HELLO,
            Turn(
                LOCAL_VOLUME,
                calls=LOCAL_CALL,
                code_says=("The assistant has used up today's budget.", LIMITED),
                new_conversation=True,
            ),
        ),
        setup=Setup(assistant={"budget_day_tokens": 10}),
        expect=Expect(players={LIVING: {"volume": 20}}),
    ),
    Case(
        "budget_day_unmatched_locally",
        CATEGORY,
        (
            HELLO,
            Turn(
                "tell me a poem about speakers",
                code_says=("The assistant has used up today's budget.", "could not do that"),
                new_conversation=True,
            ),
        ),
        setup=Setup(assistant={"budget_day_cost": 0.000001}),
        expect=Expect(players={LIVING: {"volume": 30}}),
    ),
    Case(
        "fallback_overload",
        CATEGORY,
        (
            Turn(
                LOCAL_VOLUME,
                (ApiError(529, "overloaded_error", retry_after=0.01), ApiError.overloaded()),
                calls=LOCAL_CALL,
                code_says=(LIMITED,),
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 20}}),
        live=False,
    ),
    Case(
        "fallback_rate_limit_retried_once",
        CATEGORY,
        (
            Turn(
                "living room to 22",
                (
                    ApiError.rate_limited(retry_after=0.01),
                    use("set_volume", player=LIVING, volume=22),
                    says("At 22."),
                ),
                calls=(call("set_volume", player=LIVING, volume=22),),
                says=("At 22.",),
                model_calls=3,
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 22}}),
        live=False,
    ),
    Case(
        "fallback_timeout",
        CATEGORY,
        (
            Turn(
                "tell me a poem about speakers",
                (Stall(2.0),),
                code_says=("limited mode right now, and I could not do that locally",),
            ),
        ),
        setup=Setup(model_timeout=0.3),
        live=False,
    ),
    Case(
        "fallback_key_rejected",
        CATEGORY,
        (
            Turn(
                LOCAL_VOLUME,
                (ApiError.unauthorized(),),
                calls=LOCAL_CALL,
                code_says=("The assistant's API key was rejected", LIMITED),
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 20}}, reauth=True),
        live=False,
    ),
    Case(
        "fallback_after_a_tool_ran_is_not_repeated",
        CATEGORY,
        (
            Turn(
                "living room to 25",
                (
                    use("set_volume", player=LIVING, volume=25),
                    ApiError(529, "overloaded_error", retry_after=0.01),
                    ApiError.overloaded(),
                ),
                calls=(call("set_volume", player=LIVING, volume=25),),
                code_says=("stopped answering part way",),
            ),
        ),
        expect=Expect(players={LIVING: {"volume": 25}}),
        live=False,
    ),
    Case(
        "max_steps_apology",
        CATEGORY,
        (
            Turn(
                "what is playing",
                (use("get_state", player=LIVING), use("get_state", player=LIVING)),
                calls=(read(player=LIVING), read(player=LIVING)),
                code_says=("needed more steps than I may take",),
            ),
        ),
        setup=Setup(assistant={"max_steps": 2}),
        live=False,
    ),
]
