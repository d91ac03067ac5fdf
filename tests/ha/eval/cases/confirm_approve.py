"""Confirm by voice (resolved in code from the user's next words) and approve by an admin."""

from ..case import LIVING, Case, Expect, Setup, Turn, call, says, use

CATEGORY = "confirm_approve"

LOUD = Turn(
    "set the living room to 50",
    (use("set_volume", player=LIVING, volume=50), says("That is loud. Shall I set 50?")),
    calls=(call("set_volume", "pending", player=LIVING, volume=50),),
    model_sees=("Needs confirmation",),
    continues=True,
)
FROM_40 = Setup(volume={LIVING: 40})

CASES = [
    Case(
        "confirm_yes_runs_in_code",
        CATEGORY,
        (
            LOUD,
            Turn(
                "yes",
                calls=(call("set_volume", "approved", player=LIVING, volume=50),),
                code_says=("Done.",),
                continues=False,
            ),
        ),
        setup=FROM_40,
        expect=Expect(players={LIVING: {"volume": 50}}, open_requests=0),
    ),
    Case(
        "confirm_no_leaves_it",
        CATEGORY,
        (
            LOUD,
            Turn(
                "no",
                calls=(call("set_volume", "denied", player=LIVING, volume=50),),
                code_says=("OK, I left it as it was.",),
            ),
        ),
        setup=FROM_40,
        expect=Expect(players={LIVING: {"volume": 40}}, open_requests=0),
    ),
    Case(
        "confirm_something_else_lapses",
        CATEGORY,
        (
            LOUD,
            Turn(
                "actually make it 45",
                (use("set_volume", player=LIVING, volume=45), says("At 45 then.")),
                calls=(
                    call("set_volume", "denied", player=LIVING, volume=50),  # the lapse
                    call("set_volume", player=LIVING, volume=45),
                ),
            ),
        ),
        setup=FROM_40,
        # the unanswered confirmation lapses at once (it used to stay open until it expired,
        # counting against the user's five open requests)
        expect=Expect(players={LIVING: {"volume": 45}}, open_requests=0),
    ),
    Case(
        "confirm_policy_for_standby",
        CATEGORY,
        (
            Turn(
                "turn off the living room",
                (use("standby", player=LIVING), says("Shall I switch the living room off?")),
                calls=(call("standby", "pending", player=LIVING),),
                continues=True,
            ),
            Turn("yes please", calls=(call("standby", "approved"),), code_says=("Done.",)),
        ),
        setup=Setup(policies={"standby": "confirm"}),
        expect=Expect(players={LIVING: {"standby": True}}),
    ),
    Case(
        "approve_volume_limit",
        CATEGORY,
        (
            Turn(
                "set the living room's volume limit to 60",
                (
                    use("set_volume_limit", player=LIVING, limit=60),
                    says("An administrator must approve that."),
                ),
                calls=(call("set_volume_limit", "pending", player=LIVING),),
                model_sees=("Needs approval",),
                continues=True,
            ),
        ),
        decision="approve",
        expect=Expect(players={LIVING: {"volume_limit": 60}}, open_requests=0),
    ),
    Case(
        "deny_volume_limit",
        CATEGORY,
        (
            Turn(
                "raise the living room's limit to 90",
                (
                    use("set_volume_limit", player=LIVING, limit=90),
                    says("An administrator must approve that."),
                ),
                calls=(call("set_volume_limit", "pending", player=LIVING),),
                continues=True,
            ),
        ),
        decision="deny",
        expect=Expect(players={LIVING: {"volume_limit": 80}}, open_requests=0),
    ),
    Case(
        "approve_standby_for_a_household_member",
        CATEGORY,
        (
            Turn(
                "switch the living room off",
                (use("standby", player=LIVING), says("An administrator must approve that.")),
                calls=(call("standby", "pending", player=LIVING),),
                continues=True,
            ),
        ),
        caller="user",
        setup=Setup(policies={"standby": "approve"}),
        decision="approve",
        expect=Expect(players={LIVING: {"standby": True}}, open_requests=0),
    ),
]
