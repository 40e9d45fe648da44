import Storage
import Synchronization

/// Who must hear that commands were queued, once the queuing transaction has committed: a
/// channel that can wake a device (MDM's push) registers here at start, so the queue stays
/// one component that knows no channel.
final class CommandWakeups: Sendable {
    typealias Listener = @Sendable ([RecordID<DeviceRecord>]) -> Void

    private let listeners = Mutex<[Listener]>([])

    func add(_ listener: @escaping Listener) {
        listeners.withLock { $0.append(listener) }
    }

    /// Called after the commit, never inside the transaction: a device woken before the
    /// command is visible would find nothing.
    func queued(for devices: [RecordID<DeviceRecord>]) {
        guard !devices.isEmpty else { return }
        for listener in listeners.withLock({ $0 }) { listener(devices) }
    }
}
