"""Caught!: the guard's accusation, the verdict and its consequences."""

from __future__ import annotations

from ..errors import IllegalCommand, NotYourTurn
from . import steps
from .commands import Accuse, CancelDispute, Verdict
from .events import AccusationRejected, AccusationUpheld, Accused, DisputeCancelled, GuardChanged
from .state import Dispute, GameState, Phase

def accuse(state: GameState, d: steps.Draft, c: Accuse) -> None:
    guard = steps.check_seat(state, c.guard, "guard")
    if guard != state.guard:
        raise NotYourTurn(f"seat {guard} cannot call Caught!: only the guard (seat {state.guard}) may accuse")
    accused = steps.check_seat(state, c.accused, "accused")
    if accused == guard:
        raise IllegalCommand(f"the guard (seat {guard}) cannot accuse themselves: "
                             f"accuse one of seats {steps.seat_list(tuple(p for p in state.seats if p != guard))}")
    d.phase = Phase.DISPUTE
    d.dispute = Dispute(guard, accused, resume=state.phase)
    d.events.append(Accused(guard, accused))


def verdict(state: GameState, d: steps.Draft, c: Verdict) -> None:
    dispute = state.dispute
    assert dispute is not None
    if type(c.guilty) is not bool:
        raise IllegalCommand(f"verdict {c.guilty!r} is not valid: say guilty (true) or not guilty (false)")
    d.dispute = None
    d.phase = dispute.resume
    guard, accused = dispute.guard, dispute.accused
    if c.guilty:
        # The cheater takes the card back (invisible to the official count), receives one
        # card from the guard and becomes the guard.
        d.events.append(AccusationUpheld(guard, accused))
        steps.give(d, guard, accused)
        d.guard = accused
        d.guard_changed = True
        d.events.append(GuardChanged(guard, accused))
        steps.round_over_if_empty(d)
    else:
        d.events.append(AccusationRejected(guard, accused))
        steps.draw(d, guard)


def cancel_dispute(state: GameState, d: steps.Draft, c: CancelDispute) -> None:
    dispute = state.dispute
    assert dispute is not None
    d.dispute = None
    d.phase = dispute.resume
    d.events.append(DisputeCancelled(dispute.guard, dispute.accused))
