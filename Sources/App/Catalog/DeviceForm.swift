import Domain
import Foundation
import Storage

/// The add/edit device form: what the admin typed, kept as typed so a refused form comes back
/// exactly as it was sent, with a message beside each bad field.
struct DeviceForm {
    var deviceID: RecordID<DeviceRecord>?
    var name = ""
    var model = ""
    var osVersion = ""
    var serialNumber = ""
    var udid = ""
    var isSupervised = true
    var owner = ""
    var groupValue = ""
    var installedApps: [String] = []
    var errors: [String: String] = [:]

    var groupID: RecordID<DeviceGroupRecord>? { RecordID(groupValue) }

    init() {}

    init(_ device: DeviceRecord) {
        deviceID = device.id
        name = device.name
        model = device.model.rawValue
        osVersion = device.osVersion
        serialNumber = device.serialNumber
        udid = device.udid
        isSupervised = device.isSupervised
        owner = device.owner
        groupValue = device.groupID?.description ?? ""
        installedApps = device.installedApps
    }

    init(_ form: FormFields) {
        name = form["name"]
        model = form["model"]
        osVersion = form["osVersion"]
        serialNumber = form["serialNumber"]
        udid = form["udid"]
        isSupervised = form["supervised"] == "yes"
        owner = form["owner"]
        groupValue = form["groupID"]
        // Catalog apps come as ticked boxes; other bundle IDs one per line.
        let typed = form["otherApps"].split(whereSeparator: \.isNewline).map(String.init)
        var seen: Set<String> = []
        installedApps = (form.all("installedApps") + typed).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The validated device, or nil with `errors` filled in.
    mutating func validDraft() -> DeviceDraft? {
        let draft = DeviceDraft(name: name, model: DeviceModel(rawValue: model), osVersion: osVersion, serialNumber: serialNumber,
                                udid: udid, isSupervised: isSupervised, owner: owner, installedApps: installedApps).normalised
        errors = draft.validate().messages
        if !groupValue.isEmpty && groupID == nil { errors["groupID"] = "Choose a group from the list." }
        return errors.isEmpty ? draft : nil
    }

    // MARK: view

    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct View {
        let title: String
        let action: String
        let cancel: String
        let name: String
        let osVersion: String
        let serialNumber: String
        let udid: String
        let owner: String
        let models: [Choice]
        let supervised: Bool
        let groups: [SelectOption]
        let apps: [Choice]
        let extraApps: String
        let errors: [String: String]
        /// Bundle-ID problems are keyed per entry; the form shows the first beside the list.
        let appsError: String?
        /// Enrolling a simulated device: serial number and UDID are made up by the console.
        let enrolling: Bool
    }

    func view(groups: [DeviceGroupRecord], apps: [AppRecord], enrolling: Bool = false) -> View {
        let groupOptions = SelectOption.groups(groups, first: SelectOption(value: "", label: "No group", selected: groupValue.isEmpty),
                                               selected: RecordID(groupValue))
        let known = Set(apps.map(\.bundleID))
        return View(
            title: enrolling ? "New simulated device" : deviceID == nil ? "Add a device" : "Edit \(name)",
            action: enrolling ? Site.Simulator.enroll.link() : deviceID.map(Site.Devices.show.link) ?? Site.Devices.list.link(),
            cancel: deviceID.map(Site.Devices.show.link) ?? Site.Devices.list.link(),
            name: name, osVersion: osVersion, serialNumber: serialNumber, udid: udid, owner: owner,
            models: DeviceModel.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0.rawValue == model) },
            supervised: isSupervised, groups: groupOptions,
            apps: apps.map { Choice(value: $0.bundleID, label: "\($0.name) (\($0.bundleID))", selected: installedApps.contains($0.bundleID)) },
            extraApps: installedApps.filter { !known.contains($0) }.joined(separator: "\n"),
            errors: errors,
            appsError: errors.filter { $0.key.hasPrefix("installedApps") }.sorted { $0.key < $1.key }.first?.value,
            enrolling: enrolling)
    }
}
