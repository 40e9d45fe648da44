import Storage
import Synchronization

/// Wakes the open live views of a device — the simulator page's event stream and the API's —
/// when a commit may have changed what they show, so each asks the database once per change
/// instead of four times a second. It hears commits as caches do (`Database.onCommit`): this
/// console's own, and on PostgreSQL every other console's on the same database, which is how a
/// change made through one instance reaches a page open on another.
///
/// Each device has a mark that moves with every change that may concern it: a view notes the
/// mark, reads, and then waits for the mark to move. A change that commits between the two is
/// therefore never missed, and a burst of changes costs one read.
final class LiveChanges: Sendable {
    /// What a simulated device's view depends on (see `SimulatorQueries.probe`).
    static let tables: Set<String> = [DeviceRecord.tableName, "simulator_states", "policy_generation", "device_commands"]

    private struct Waiter {
        let device: Int64
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        /// Moves with changes that may concern every device: policies, commands, whole tables.
        var everyone: UInt64 = 0
        var byDevice: [Int64: UInt64] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0

        func mark(of device: Int64) -> UInt64 { everyone &+ (byDevice[device] ?? 0) }
    }

    private let state = Mutex(State())

    init(database: Database) {
        database.onCommit(tables: Self.tables) { [weak self] changes in self?.heard(changes) }
    }

    /// How many streams wait for a change now: tests make their change once a stream listens.
    var waiting: Int {
        state.withLock { $0.waiters.count }
    }

    func mark(of device: RecordID<DeviceRecord>) -> UInt64 {
        state.withLock { $0.mark(of: device.rawValue) }
    }

    /// Returns when the device's mark has moved past `mark`, after `longest` otherwise, or at
    /// once when the task is cancelled.
    func wait(for device: RecordID<DeviceRecord>, after mark: UInt64, upTo longest: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForMove(of: device.rawValue, after: mark) }
            group.addTask { try? await Task.sleep(for: longest) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForMove(of device: Int64, after mark: UInt64) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let moved = state.withLock { state in
                    guard state.mark(of: device) == mark, !Task.isCancelled else { return true }
                    state.waiters[id] = Waiter(device: device, continuation: continuation)
                    return false
                }
                if moved { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Runs on the writer's thread (or the change listener's): moves marks and wakes waiters,
    /// nothing more.
    private func heard(_ changes: CommittedChanges) {
        let woken: [Waiter] = state.withLock { state in
            // Commands and the policy name no device by row id; the simulator's state rows do
            // not either (their own ids), so any change to those may concern every device.
            let devices = changes.rowIDs(in: DeviceRecord.tableName)
            let concernsEveryone = devices == nil || changes.changed("policy_generation") || changes.changed("device_commands")
                || changes.changed("simulator_states")
            if concernsEveryone {
                state.everyone &+= 1
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for device in devices ?? [] { state.byDevice[device, default: 0] &+= 1 }
            let concerned = state.waiters.filter { devices?.contains($0.value.device) == true }
            for key in concerned.keys { state.waiters[key] = nil }
            return Array(concerned.values)
        }
        for waiter in woken { waiter.continuation.resume() }
    }
}
