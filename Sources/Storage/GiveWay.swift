import Foundation

/// Long work — a batch of inserts, decoding an upload, a scan of the unindexed log tail — that
/// lets a thread waiting for its core run first, every tenth of a millisecond or so.
///
/// On this machine's kernel a thread woken for a person's request (an event loop, a task on
/// Swift's pool) was seen waiting 3–5 ms for a core that a log decoder or the log writer held,
/// though those run in the idle scheduling class: the wake-up did not preempt them, and they
/// ran on until they slept or the next tick; a long scan at normal priority held its core as
/// long. During a log flood those waits were most of a check-in's slowest answers. A thread
/// that yields now and then (`sched_yield`: the kernel runs whoever waits, or returns at once
/// when no one does) bounds the wait by the work between two yields, whatever the kernel's
/// preemption model.
public struct GiveWay: Sendable {
    private let every: Int
    private var steps = 0
    /// How many times this one has given way.
    public private(set) var times = 0

    /// Yields on every `every`th `step`: pick it so that many steps take about 0.1 ms.
    public init(every: Int) {
        self.every = max(1, every)
    }

    /// One unit of work done.
    public mutating func step() {
        steps += 1
        if steps == every {
            steps = 0
            times += 1
            Self.now()
        }
    }

    /// Lets any thread waiting for this core run first.
    private static func now() {
        sched_yield()
    }
}
