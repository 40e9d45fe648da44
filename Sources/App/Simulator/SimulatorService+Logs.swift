import Domain
import Foundation
import Storage

/// What the simulated SDK uploads goes to the log store's file, after the step's own
/// transaction in the console's file has committed.
extension SimulatorService {
    /// Logs a step uploaded, with what the log store judges them by.
    struct Upload: Sendable {
        let logs: [SimulatedLog]
        let device: DeviceRecord
        /// The check-in document's, as for an upload through the API.
        let logging: Logging?
        let at: Date
    }

    /// The simulated SDK uploads through the same checks as a device calling the log API: the
    /// console's policy for the device decides which levels it keeps, and a full app is refused,
    /// which the device's timeline then says.
    func store(_ upload: Upload) async throws {
        let deviceID = upload.device.id
        let lines = upload.logs.map { LogLine(app: $0.app, appVersion: $0.appVersion ?? "", level: $0.level, kind: $0.kind, loggedAt: $0.loggedAt, message: $0.message) }
        do {
            let checked = try LogStore.CheckedBatch(lines)
            try await logStore.ingest(logStore.prepare(checked, from: LogStore.Uploader(id: deviceID, name: upload.device.name)), logging: upload.logging)
        } catch let refusal as LogStore.Refusal {
            try await database.write { connection in
                _ = try connection.insert(SimulatorEventRecord(
                    deviceID: deviceID, deviceTime: upload.logs.last?.loggedAt ?? upload.at, recordedAt: upload.at,
                    action: "Upload \(Counted.phrase(upload.logs.count, "log line"))", rule: "The console checks every upload", result: .refused, message: refusal.message))
            }
        }
    }
}
