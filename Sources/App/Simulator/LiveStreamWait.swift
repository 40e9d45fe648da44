import ServiceLifecycle
import Storage

/// How an open event stream of a device spends the time between changes: waiting on
/// `LiveChanges`, not asking the database. It reads again when the device's mark moves, and
/// every few seconds regardless — a safety net for writes no console heard, such as the
/// command line's on an SQLite file. It checks once a second whether its time is up or the
/// console is stopping, and says something every fifteen seconds so proxies keep it open.
struct LiveStreamWait {
    static let recheck: Duration = .seconds(5)
    static let keepAlive: Duration = .seconds(15)

    let changes: LiveChanges
    let device: RecordID<DeviceRecord>
    let deadline: ContinuousClock.Instant
    private var lastSent = ContinuousClock.now

    init(changes: LiveChanges, device: RecordID<DeviceRecord>, lasting seconds: Int) {
        self.changes = changes
        self.device = device
        deadline = .now + .seconds(seconds)
    }

    /// Whether the stream goes on: its time is not up and the console is not stopping (a
    /// stopping console ends its streams at once, and browsers reconnect to another instance).
    var isOpen: Bool { ContinuousClock.now < deadline && !Task.isCancelled && !Task.isShuttingDownGracefully }

    /// The device's mark; take it before reading, then wait `untilChanged(after:)` it.
    var mark: UInt64 { changes.mark(of: device) }

    mutating func sent() {
        lastSent = .now
    }

    mutating func untilChanged<Event>(after mark: UInt64, events: inout EventStreamWriter<Event>) async throws {
        let recheckAt = ContinuousClock.now + Self.recheck
        while isOpen, changes.mark(of: device) == mark, ContinuousClock.now < recheckAt {
            await changes.wait(for: device, after: mark, upTo: .seconds(1))
            if ContinuousClock.now - lastSent >= Self.keepAlive {
                try await events.comment("still here")
                lastSent = .now
            }
        }
    }
}
