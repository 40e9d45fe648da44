import Domain
import Foundation
import Mustache
import Storage

/// The command history of a device and the form to queue one, shared by the device page and
/// the simulator.
struct DeviceCommandsView {
    struct Row {
        let uuid: String
        let name: String
        let status: String
        let statusName: String
        let queued: String
        let queuedBy: String
        let result: String
    }

    struct Kind {
        let value: String
        let label: String
        let selected: Bool
    }

    /// Where the form posts.
    let queuePath: String
    let rows: [Row]
    let hasRows: Bool
    let kinds: [Kind]
    let canQueue: Bool
    /// The page the form returns to.
    let back: String
    /// What the form shows: empty, or a refused command with its messages.
    let form: CommandForm

    init(deviceID: RecordID<DeviceRecord>, commands: [DeviceCommandRecord], role: Role?, now: Date, back: String,
         form: CommandForm = CommandForm()) {
        queuePath = Site.Devices.queueCommand.link(deviceID)
        self.back = back
        self.form = form
        hasRows = !commands.isEmpty
        rows = commands.map { Self.row($0, now: now) }
        kinds = DeviceCommand.RequestType.queueable.filter { role?.includes($0.role) == true }.map {
            Kind(value: $0.rawValue, label: $0.displayName, selected: $0.rawValue == form.requestType)
        }
        canQueue = !kinds.isEmpty
    }

    /// A command as the history shows it, with the feedback it brought back.
    static func row(_ command: DeviceCommandRecord, now: Date) -> Row {
        var result = command.resultSummary
        if let report = command.result, !report.isEmpty {
            result += " " + report.sorted { $0.key < $1.key }.map { app, counters in
                "\(app): " + (counters.isEmpty ? "no feedback" : counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }.joined(separator: "; ")
        }
        return Row(uuid: command.uuid, name: command.parameters.summary, status: command.status.rawValue, statusName: command.status.displayName,
                   queued: DisplayTime.relative(command.queuedAt, now: now), queuedBy: command.queuedBy, result: result)
    }
}

// The command section is on every device page, a hot page: answer the template engine
// without reflection.
extension DeviceCommandsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "queuePath": queuePath
        case "rows": rows
        case "hasRows": hasRows
        case "kinds": kinds
        case "canQueue": canQueue
        case "back": back
        case "apps": form.apps
        case "deleteFeedback": form.deleteFeedback
        case "captureMinutes": form.captureMinutes
        case "requestTypeError": form.errors["requestType"]
        case "appsError": form.errors["apps"]
        case "captureMinutesError": form.errors["captureMinutes"]
        default: nil
        }
    }
}

extension DeviceCommandsView.Kind: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}

extension DeviceCommandsView.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "uuid": uuid
        case "name": self.name
        case "status": status
        case "statusName": statusName
        case "queued": queued
        case "queuedBy": queuedBy
        case "result": result
        default: nil
        }
    }
}
