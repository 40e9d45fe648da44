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
        /// Where a person who may take the command back sends the cancel form; nil otherwise.
        let cancelPath: String?
    }

    struct Kind {
        let value: String
        let label: String
        let selected: Bool
        /// Apple would not run it on this device: offered, greyed, with the reason in its label.
        let disabled: Bool
    }

    /// Where the form posts.
    let queuePath: String
    /// Where an admin empties the queue, while commands wait; nil otherwise.
    let clearPath: String?
    let rows: [Row]
    let hasRows: Bool
    let kinds: [Kind]
    let canQueue: Bool
    /// The page the form returns to.
    let back: String
    /// What the form shows: empty, or a refused command with its messages.
    let form: CommandForm
    /// A real device: Apple's MDM commands, with the fields they read.
    let overMDM: Bool

    init(deviceID: RecordID<DeviceRecord>, commands: [DeviceCommandRecord], role: Role?, now: Date, back: String,
         form: CommandForm = CommandForm(), target: CommandDraft.Target? = nil) {
        overMDM = target?.overMDM ?? false
        queuePath = Site.Devices.queueCommand.link(deviceID)
        clearPath = role == .admin && commands.contains(where: \.status.isWaiting) ? Site.Devices.clearCommands.link(deviceID) : nil
        self.back = back
        self.form = form
        hasRows = !commands.isEmpty
        rows = commands.map { Self.row($0, role: role, now: now) }
        kinds = DeviceCommand.RequestType.queueable(overMDM: overMDM).filter { role?.includes($0.role) == true }.map { type in
            let reason = target.flatMap { $0.overMDM ? type.unavailability(isSupervised: $0.isSupervised, osVersion: $0.osVersion) : nil }
            return Kind(value: type.rawValue, label: type.displayName + (reason.map { " — \($0)" } ?? ""),
                        selected: type.rawValue == form.requestType, disabled: reason != nil)
        }
        canQueue = !kinds.isEmpty
    }

    /// A command as the history shows it, with the feedback it brought back.
    static func row(_ command: DeviceCommandRecord, role: Role?, now: Date) -> Row {
        var result = command.resultSummary
        if let report = command.result, !report.isEmpty {
            result += " " + report.sorted { $0.key < $1.key }.map { app, counters in
                "\(app): " + (counters.isEmpty ? "no feedback" : counters.sorted { $0.key < $1.key }.map { "\($0.key) \(FeedbackText.display($0.value))" }.joined(separator: ", "))
            }.joined(separator: "; ")
        }
        let mayCancel = command.status.isWaiting && role?.includes(command.requestType.role) == true
        return Row(uuid: command.uuid, name: command.command.summary, status: command.status.rawValue, statusName: statusName(of: command, now: now),
                   queued: DisplayTime.relative(command.queuedAt, now: now), queuedBy: command.queuedBy, result: result,
                   cancelPath: mayCancel ? Site.Devices.cancelCommand.link(PathPair(command.deviceID, command.uuid)) : nil)
    }

    /// The status, and for one the device keeps putting off, how often and since when.
    static func statusName(of command: DeviceCommandRecord, now: Date) -> String {
        guard command.notNowCount > 0, let first = command.firstNotNowAt else { return command.status.displayName }
        let times = command.notNowCount == 1 ? "once" : "\(command.notNowCount.formatted()) times"
        return command.status.displayName + " (not now \(times), first \(DisplayTime.relative(first, now: now)))"
    }
}

// The command section is on every device page, a hot page: answer the template engine
// without reflection.
extension DeviceCommandsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "queuePath": queuePath
        case "clearPath": clearPath
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
        case "overMDM": overMDM
        case "message": form.message
        case "phoneNumber": form.phoneNumber
        case "footnote": form.footnote
        case "messageError": form.errors["message"]
        case "phoneNumberError": form.errors["phoneNumber"]
        case "footnoteError": form.errors["footnote"]
        case "confirmNameError": form.errors["confirmName"]
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
        case "disabled": disabled
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
        case "cancelPath": cancelPath
        default: nil
        }
    }
}
