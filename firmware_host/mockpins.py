"""gpiozero mock pins with chosen edge timestamps, for tests and demos of the GPIO adapter.

gpiozero's ``MockPin`` stamps each edge with ``time.monotonic()`` when it is driven, so a test
cannot choose the timestamps a race is judged on. ``StampedMockPin.press(t_ns)`` delivers the
edge with ticks of ``t_ns / 1e9`` — exactly what the lgpio factory hands gpiozero for a kernel
stamp of ``t_ns`` — so the adapter's whole conversion path runs as on a Pi. The factory's own
clock (``ticks()``, used for arming and GO) reads ``ClockedMockFactory.now_s``.

Callbacks still run synchronously in the thread that drives the pin, as with any MockPin, and
always carry the right level. :class:`KernelMockFactory` does not: it runs the Linux GPIO
character device's semantics (:func:`simulate_kernel`) and delivers the callbacks on a thread of
its own, as lgpio does.
"""

from __future__ import annotations

import heapq
import queue
import random
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]

NS_PER_S = 1_000_000_000


class StampedMockPin(MockPin):  # type: ignore[misc]
    """A MockPin whose next edge carries chosen ticks, and which counts its state changes."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        # Set before MockPin.__init__: setting the pull there already drives the pin.
        self.next_ticks: object = None
        self.changes = 0
        self._changed = threading.Condition()
        super().__init__(*args, **kwargs)

    def press(self, t_ns: int, active_low: bool = True) -> None:
        """Close the button at kernel time ``t_ns`` (drive low for a pulled-up button)."""
        self.edge(level=not active_low, t_ns=t_ns)

    def release(self, t_ns: int, active_low: bool = True) -> None:
        """Open the button at kernel time ``t_ns``."""
        self.edge(level=active_low, t_ns=t_ns)

    def edge(self, level: bool, t_ns: int | None = None, ticks: object = None) -> None:
        """Drive the input to ``level``; the edge carries ``t_ns / 1e9`` (or raw ``ticks``)."""
        self.next_ticks = t_ns / NS_PER_S if t_ns is not None else ticks
        if level:
            self.drive_high()
        else:
            self.drive_low()

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.next_ticks is not None:
            # MockPin._call_when_changed passes _last_change as the edge's ticks.
            self._last_change = self.next_ticks
        self.next_ticks = None
        if changed:
            with self._changed:
                self.changes += 1
                self._changed.notify_all()
        return changed

    def wait_changes(self, n: int, timeout_s: float = 5.0) -> bool:
        """Block until the pin has changed state ``n`` times in all (e.g. an LED blinking)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.changes >= n, timeout=timeout_s)


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory of StampedMockPins whose ``ticks()`` reads ``now_s`` (float seconds)."""

    def __init__(self, now_s: float = 1000.0, pin_class: type[StampedMockPin] = StampedMockPin) -> None:
        super().__init__(pin_class=pin_class)
        self.now_s: object = now_s

    def ticks(self) -> object:
        return self.now_s

    def set_now_ns(self, t_ns: int) -> None:
        """Set the factory clock the way the adapter will read it back: ``t_ns / 1e9``."""
        self.now_s = t_ns / NS_PER_S

    def stamped_pin(self, gpio: int) -> StampedMockPin:
        pin: StampedMockPin = self.pin(gpio)
        return pin


# -- the kernel model -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhysicalEdge:
    """A line's true change: at ``t_ns`` the pin's level became ``level`` (True = high)."""

    t_ns: int
    gpio: int
    level: bool


@dataclass(frozen=True, slots=True)
class KernelTiming:
    """The kernel's delays, each drawn uniformly from a (low, high) range in ns.

    ``irq_latency_ns``: edge to hard-IRQ handler (now and then ``load_latency_ns`` instead, with
    chance ``load_rate``). ``bank_step_ns``: between stamps of pins of one bank pending in the
    same handler run, stamped in ascending pin order. ``thread_latency_ns``: hard IRQ to the
    threaded handler that reads the level; the line stays masked until then and its edges are
    lost meanwhile (``latch_while_masked``: one pending edge is kept and fires on unmask, stamped
    late). ``delivery_ns``: threaded handler to lgpio's callback."""

    irq_latency_ns: tuple[int, int] = (2_000, 12_000)
    load_rate: float = 0.02
    load_latency_ns: tuple[int, int] = (12_000, 60_000)
    bank_step_ns: tuple[int, int] = (1_000, 3_000)
    thread_latency_ns: tuple[int, int] = (5_000, 80_000)
    delivery_ns: tuple[int, int] = (20_000, 400_000)
    latch_while_masked: bool = False
    bank_size: int = 32  # BCM2835/2711: GPIO 0-31 are bank 0

    def max_stamp_error_ns(self, pins_in_bank: int) -> int:
        """How much later than its edge a first edge can be stamped, at most (stamps are never early)."""
        latency = max(self.irq_latency_ns[1], self.load_latency_ns[1])
        return latency + (pins_in_bank - 1) * self.bank_step_ns[1]


@dataclass(frozen=True, slots=True)
class KernelEvent:
    """One event as the kernel hands it to lgpio, and the truth behind it (for tests)."""

    gpio: int
    stamp_ns: int  # taken in the hard-IRQ handler
    level: bool  # read in the threaded handler at read_t_ns
    read_t_ns: int
    deliver_t_ns: int
    line_seqno: int
    edge_t_ns: int  # the physical edge that raised the interrupt
    true_level: bool  # the level that edge set


@dataclass(frozen=True, slots=True)
class KernelRun:
    """What the kernel made of a schedule of physical edges; events in delivery order."""

    events: tuple[KernelEvent, ...]
    lost_edges: int

    @property
    def mislabelled(self) -> int:
        """Events whose reported level is not the level their own edge set."""
        return sum(e.level != e.true_level for e in self.events)


@dataclass(slots=True)
class _Line:
    level: bool
    enabled: bool = True
    pending: bool = False
    latched: bool = False
    edge_t_ns: int = 0
    edge_level: bool = False
    stamp_ns: int = 0
    seqno: int = 0
    last_delivery_ns: int = 0


@dataclass(slots=True)
class _Bank:
    scheduled: bool = False
    busy_until_ns: int = 0


_EDGE, _HANDLER, _READ = 0, 1, 2


def simulate_kernel(
    edges: Iterable[PhysicalEdge],
    levels: Mapping[int, bool],
    timing: KernelTiming,
    rng: random.Random,
) -> KernelRun:
    """Run a schedule of physical edges through a model of the GPIO character device.

    ``levels`` gives each watched line's level before the first edge. The model: an edge on an
    unmasked line sets its pending bit; the bank's hard-IRQ handler runs ``irq_latency`` later
    (or when the previous run ends), stamps every pending pin of the bank in pin order
    ``bank_step`` apart and masks each; that line's threaded handler reads the level
    ``thread_latency`` after its stamp, unmasks the line and queues the event for lgpio.
    """
    lines = {gpio: _Line(level=bool(level)) for gpio, level in levels.items()}
    banks: dict[int, _Bank] = {}
    heap: list[tuple[int, int, int, int, bool]] = []  # (t_ns, kind, order, gpio or bank, level)
    order = 0
    for edge in edges:
        if edge.gpio not in lines:
            raise ValueError(f"edge {edge!r} is on gpio {edge.gpio}, which the model does not watch: "
                             f"give its level in levels")
        heapq.heappush(heap, (edge.t_ns, _EDGE, order, edge.gpio, edge.level))
        order += 1
    events: list[KernelEvent] = []
    lost = 0

    def draw(span: tuple[int, int]) -> int:
        return rng.randint(span[0], span[1])

    def schedule(bank_no: int, t_ns: int) -> None:
        nonlocal order
        bank = banks.setdefault(bank_no, _Bank())
        if bank.scheduled:
            return
        late = timing.load_latency_ns if rng.random() < timing.load_rate else timing.irq_latency_ns
        bank.scheduled = True
        heapq.heappush(heap, (max(t_ns + draw(late), bank.busy_until_ns), _HANDLER, order, bank_no, False))
        order += 1

    while heap:
        t_ns, kind, _, key, level = heapq.heappop(heap)
        if kind == _EDGE:
            line = lines[key]
            if line.level == level:
                continue
            line.level = level
            if line.enabled:
                if not line.pending:
                    line.pending, line.edge_t_ns, line.edge_level = True, t_ns, level
                    schedule(key // timing.bank_size, t_ns)
                else:
                    lost += 1  # coalesced into the pending bit before the handler ran
            else:
                lost += 1
                if timing.latch_while_masked and not line.latched:
                    line.latched, line.edge_t_ns, line.edge_level = True, t_ns, level
        elif kind == _HANDLER:
            bank = banks[key]
            bank.scheduled = False
            stamp = t_ns
            pending = sorted(g for g, ln in lines.items() if ln.pending and g // timing.bank_size == key)
            for i, gpio in enumerate(pending):
                if i:
                    stamp += draw(timing.bank_step_ns)
                line = lines[gpio]
                line.pending, line.enabled, line.stamp_ns = False, False, stamp
                heapq.heappush(heap, (stamp + draw(timing.thread_latency_ns), _READ, order, gpio, False))
                order += 1
            bank.busy_until_ns = stamp + draw(timing.bank_step_ns)
        else:
            line = lines[key]
            line.seqno += 1
            deliver = max(t_ns + draw(timing.delivery_ns), line.last_delivery_ns)
            line.last_delivery_ns = deliver
            events.append(KernelEvent(key, line.stamp_ns, line.level, t_ns, deliver, line.seqno,
                                      line.edge_t_ns, line.edge_level))
            line.enabled = True
            if line.latched:  # the edge kept while masked fires now, stamped late
                line.latched, line.pending = False, True
                schedule(key // timing.bank_size, t_ns)
    events.sort(key=lambda e: (e.deliver_t_ns, e.read_t_ns, e.gpio))
    return KernelRun(tuple(events), lost)


class KernelMockPin(StampedMockPin):
    """A pin of :class:`KernelMockFactory`: test code drives it through the factory's kernel."""

    def set_level(self, level: bool) -> None:
        """Change the pin's level without an edge callback (the kernel reports it later)."""
        self._change_state(level)

    def deliver(self, ticks: object, level: int) -> None:
        """Call ``when_changed(ticks, level)`` as lgpio does: the kernel's stamp and level."""
        if self._when_changed is not None:
            super(MockPin, self)._call_when_changed(ticks, level)

    def drive_high(self) -> None:
        self._refuse_direct_edge()
        super().drive_high()

    def drive_low(self) -> None:
        self._refuse_direct_edge()
        super().drive_low()

    def _refuse_direct_edge(self) -> None:
        # Setting the pull while nothing listens is fine; an edge someone listens to must come
        # through the kernel model, or the test would be back to MockPin's perfect levels.
        if self._when_changed is not None:
            raise RuntimeError(
                f"pin {self!r} is watched: drive it through KernelMockFactory.play(), not directly"
            )


@dataclass(slots=True)
class _Batch:
    """One played schedule in virtual time: (t_ns, order, a level change or an event to deliver)."""

    steps: list[tuple[int, int, PhysicalEdge | KernelEvent]] = field(default_factory=list)


class KernelMockFactory(ClockedMockFactory):
    """A MockFactory whose input edges go through :func:`simulate_kernel`.

    :meth:`play` takes a schedule of physical edges, runs the kernel model with the factory's
    seeded generator and hands the result to a delivery thread, which walks virtual time: it
    sets each pin's true level when its physical edge happens, sets the factory clock to each
    event's delivery time and calls the pin's ``when_changed(stamp_s, level)`` — on its own
    thread, as lgpio does. No clock is read and nothing sleeps: :meth:`wait_delivered` waits on
    a condition with a timeout."""

    def __init__(self, seed: int, timing: KernelTiming | None = None, now_s: float = 1000.0) -> None:
        super().__init__(now_s, pin_class=KernelMockPin)
        self.timing = KernelTiming() if timing is None else timing
        self._rng = random.Random(seed)
        self._batches: queue.Queue[_Batch | None] = queue.Queue()
        self._done = threading.Condition()
        self._played = 0
        self._delivered = 0
        self.delivery_errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._deliver, name="kernel-mock-delivery", daemon=True)
        self._thread.start()

    def kernel_pin(self, gpio: int) -> KernelMockPin:
        pin: KernelMockPin = self.pin(gpio)
        return pin

    def play(self, edges: Sequence[PhysicalEdge]) -> KernelRun:
        """Run ``edges`` (each line's current level is its start) and start delivering the events."""
        gpios = sorted({e.gpio for e in edges})
        levels = {g: bool(self.kernel_pin(g).state) for g in gpios}
        run = simulate_kernel(edges, levels, self.timing, self._rng)
        batch = _Batch()
        for i, edge in enumerate(sorted(edges, key=lambda e: e.t_ns)):
            batch.steps.append((edge.t_ns, 2 * i, edge))
        for i, ev in enumerate(run.events):
            batch.steps.append((ev.deliver_t_ns, 2 * i + 1, ev))
        batch.steps.sort(key=lambda s: (s[0], s[1]))
        with self._done:
            self._played += 1
        self._batches.put(batch)
        return run

    def wait_delivered(self, timeout_s: float = 5.0) -> bool:
        """Block until every played schedule has been delivered."""
        with self._done:
            return self._done.wait_for(lambda: self._delivered >= self._played, timeout=timeout_s)

    def _deliver(self) -> None:
        while True:
            batch = self._batches.get()
            if batch is None:
                return
            try:
                for t_ns, _, step in batch.steps:
                    if isinstance(step, PhysicalEdge):
                        self.kernel_pin(step.gpio).set_level(step.level)
                    else:
                        self.set_now_ns(t_ns)
                        self.kernel_pin(step.gpio).deliver(step.stamp_ns / NS_PER_S, int(step.level))
            except BaseException as e:  # a test must see it, not a silent dead thread
                self.delivery_errors.append(e)
            with self._done:
                self._delivered += 1
                self._done.notify_all()

    def close(self) -> None:
        self._batches.put(None)
        self._thread.join(timeout=5.0)
        super().close()
