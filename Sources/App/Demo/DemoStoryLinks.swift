import Foundation
import Storage

/// The demo's names made into addresses: the devices, profiles and groups the stories name,
/// read in one snapshot. A name someone renamed or removed has no address, and its step or
/// button reads without a link.
struct DemoStoryLinks: Sendable {
    let devices: [String: RecordID<DeviceRecord>]
    let profiles: [String: RecordID<ProfileRecord>]
    let groups: [String: (id: RecordID<DeviceGroupRecord>, devices: Int)]

    static func load(in connection: Connection) throws -> DemoStoryLinks {
        var deviceNames: Set<String> = []
        var identifiers: Set<String> = []
        for story in DemoStory.all {
            deviceNames.formUnion(story.simulatorDevices)
            for step in story.steps {
                switch step.target {
                case .simulator(let device), .device(let device), .feedback(let device, _): deviceNames.insert(device)
                case .profileHistory(let identifier): identifiers.insert(identifier)
                case .crashGroups, .logs: break
                }
            }
        }
        let devices = try connection.fetch(DeviceRecord.query().filter("name", in: deviceNames.sorted()))
        let profiles = try connection.fetch(ProfileRecord.query().filter("identifier", in: identifiers.sorted()))
        let groups = try connection.fetch(DeviceGroupRecord.query().filter("name", in: DemoStory.all.map(\.group)))
        let counts = try connection.fetch(CatalogQueries.GroupCount.self, CatalogQueries.deviceCountsByGroup)
        let countByGroup = Dictionary(uniqueKeysWithValues: counts.map { ($0.groupID, $0.devices) })
        return DemoStoryLinks(
            devices: Dictionary(devices.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first }),
            profiles: Dictionary(uniqueKeysWithValues: profiles.map { ($0.identifier, $0.id) }),
            groups: Dictionary(groups.map { ($0.name, ($0.id, countByGroup[$0.id.rawValue] ?? 0)) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Where a step's link goes, or nil when what it names is gone.
    func href(_ target: DemoStory.Target) -> String? {
        switch target {
        case .simulator(let device): devices[device].map(Site.Simulator.show.link)
        case .device(let device): devices[device].map(Site.Devices.show.link)
        case .feedback(let device, let app): devices[device].map { Site.Devices.feedback(on: $0, app: app) }
        case .profileHistory(let identifier): profiles[identifier].map(Site.Profiles.history.link)
        case .crashGroups(let app): Site.Logs.crashGroups(app: app)
        case .logs(let app, let search):
            Site.Logs.index.link(query: ["app": app, "q": search])
        }
    }
}
