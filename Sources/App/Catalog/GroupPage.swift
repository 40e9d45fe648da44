import Domain
import Foundation
import Storage

/// A group's page: where it sits, its devices and subgroups, and every profile that reaches
/// it — assigned here or inherited from a group above, with the source — each unassignable
/// through the impact preview; removal says beforehand what it will do, or why it cannot.
struct GroupPage {
    struct Crumb {
        let name: String
        let href: String
    }

    struct Subgroup {
        let name: String
        let href: String
        let devices: String
    }

    struct Reaching {
        let name: String
        let href: String
        let version: Int
        let payloads: String
        let isHere: Bool
        let sourceName: String
        let sourceHref: String
        /// The preview of unassigning it from where it is assigned (admins).
        let unassignPath: String
    }

    let name: String
    let ancestors: [Crumb]
    let ownDevices: Int
    let allDevices: Int
    /// "12 devices": everything in the group and its subgroups.
    let allDevicesText: String
    let devicesPath: String
    let subgroups: [Subgroup]
    let hasSubgroups: Bool
    let reaching: [Reaching]
    let hasReaching: Bool
    let canEdit: Bool
    let editPath: String
    let deletePath: String
    /// Removal is allowed only for an empty group; otherwise why not.
    let removalBlocked: String?
    let removalConfirmation: String

    init(_ overview: CatalogReader.GroupOverview, canEdit: Bool) {
        let group = overview.group, id = group.id
        let tree = GroupTree(overview.groups)
        let byID = Dictionary(uniqueKeysWithValues: overview.groups.map { ($0.id, $0) })
        let byName = Dictionary(overview.groups.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        func count(_ group: RecordID<DeviceGroupRecord>) -> Int { overview.devices[group.rawValue] ?? 0 }
        name = group.name
        ancestors = tree.lineage(of: id).dropFirst().reversed().compactMap { byID[$0] }.map { Crumb(name: $0.name, href: Site.Groups.show.link($0.id)) }
        ownDevices = count(id)
        allDevices = tree.subtree(of: id, among: overview.groups.map { $0.id }).reduce(0) { $0 + count($1) }
        allDevicesText = Counted.phrase(allDevices, "device")
        devicesPath = Site.Devices.list(in: id)
        subgroups = overview.groups.filter { $0.parentID == id }.map {
            Subgroup(name: $0.name, href: Site.Groups.show.link($0.id), devices: Counted.phrase(count($0.id), "device"))
        }
        hasSubgroups = !subgroups.isEmpty
        reaching = overview.reaching.map { profile in
            let source = profile.source
            let sourceID = byName[source.groupName] ?? id
            let profileID = RecordID<ProfileRecord>(source.profileID)
            return Reaching(name: source.profileName, href: Site.Profiles.show.link(profileID), version: source.version,
                            payloads: profile.content.payloads.map(\.kind.displayName).joined(separator: " · "),
                            isHere: source.groupDistance == 0, sourceName: source.groupName, sourceHref: Site.Groups.show.link(sourceID),
                            unassignPath: Site.Profiles.unassign.link(profileID, sourceID))
        }
        hasReaching = !reaching.isEmpty
        self.canEdit = canEdit
        editPath = Site.Groups.edit.link(id)
        deletePath = Site.Groups.remove.link(id)
        let blockers = [ownDevices > 0 ? Counted.phrase(ownDevices, "device") : nil,
                        subgroups.isEmpty ? nil : Counted.phrase(subgroups.count, "subgroup")].compactMap { $0 }
        removalBlocked = blockers.isEmpty ? nil : "Move its \(blockers.joined(separator: " and ")) to another group first: removing a group never leaves a device without its policy."
        let assigned = reaching.filter(\.isHere).count
        removalConfirmation = "Remove the group \(group.name)? "
            + (assigned == 0 ? "No profile is assigned to it."
               : (assigned == 1 ? "Its assignment goes" : "Its \(assigned) assignments go") + " with it; the profiles themselves stay.")
    }
}
