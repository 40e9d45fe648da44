import Domain
import Foundation
import Logging
import Storage

/// Every change to the catalog — apps, device groups, devices — made once for the pages, the
/// API and the simulator alike: the draft's own rules, then the rules across records (a group
/// exists, no group inside itself, names, serial numbers, UDIDs and bundle IDs unique), the
/// write and its audit entry, all in one transaction. Refusals are `CatalogRefusal`s.
struct CatalogService: Sendable {
    let database: Database
    /// The log store's file: a removed device's lines keep its name but no longer its id.
    let logs: Database
    let now: @Sendable () -> Date

    // MARK: apps

    func addApp(_ draft: CatalogAppDraft, by actor: Actor) async throws -> AppRecord {
        let app = try valid(draft)
        let time = now()
        return try await refusingDuplicates(of: app) {
            try await database.write { connection in
                var record = AppRecord(name: "", bundleID: "", isManaged: true, isSDKBuilt: false,
                                       hasAssessmentEntitlement: false, iconColor: "", createdAt: time)
                record.apply(app)
                let saved = try connection.insert(record)
                try connection.audit(.appCreated, subject: saved.bundleID, by: actor, after: saved.auditSummary, at: time)
                return saved
            }
        }
    }

    func updateApp(_ id: RecordID<AppRecord>, to draft: CatalogAppDraft, by actor: Actor) async throws -> AppRecord {
        let app = try valid(draft)
        return try await refusingDuplicates(of: app) {
            try await database.write { connection in
                var record = try connection.require(AppRecord.self, id: id)
                let before = record.auditSummary
                record.apply(app)
                try connection.update(record)
                try connection.audit(.appUpdated, subject: record.bundleID, by: actor, before: before, after: record.auditSummary, at: now())
                return record
            }
        }
    }

    @discardableResult
    func removeApp(_ id: RecordID<AppRecord>, by actor: Actor) async throws -> AppRecord {
        try await remove(id, audit: .appDeleted, subject: \.bundleID, by: actor)
    }

    private func valid(_ draft: CatalogAppDraft) throws(CatalogRefusal) -> CatalogAppDraft {
        let errors = draft.validate()
        guard errors.isEmpty else { throw .invalid(errors) }
        return draft.normalised
    }

    private func refusingDuplicates<T>(of app: CatalogAppDraft, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch StorageError.uniqueViolation {
            throw CatalogRefusal.conflict(.bundleIDTaken, "bundleID", "\(app.bundleID) is already in the catalog.")
        }
    }

    // MARK: groups

    func addGroup(_ draft: GroupDraft, parentID: RecordID<DeviceGroupRecord>?, by actor: Actor) async throws -> DeviceGroupRecord {
        let name = try valid(draft)
        let time = now()
        return try await refusingDuplicates(ofGroup: name) {
            try await database.write { connection in
                try requireParent(parentID, in: connection)
                let group = try connection.insert(DeviceGroupRecord(name: name, parentID: parentID, createdAt: time))
                try connection.audit(.groupCreated, subject: group.name, by: actor, after: group.auditSummary, at: time)
                return group
            }
        }
    }

    /// Renames the group and moves it under `parentID` (nil: to the top).
    func updateGroup(_ id: RecordID<DeviceGroupRecord>, to draft: GroupDraft, parentID: RecordID<DeviceGroupRecord>?,
                     by actor: Actor) async throws -> DeviceGroupRecord {
        let name = try valid(draft)
        return try await refusingDuplicates(ofGroup: name) {
            try await database.write { connection in
                var group = try connection.require(DeviceGroupRecord.self, id: id)
                try requireParent(parentID, in: connection)
                if let parentID {
                    let groups = try connection.fetch(DeviceGroupRecord.query())
                    let tree = GroupTree(groups)
                    if parentID == id || tree.wouldCreateCycle(settingParentOf: id, to: parentID) {
                        throw CatalogRefusal.invalid("parentID", "A group cannot sit inside itself or one of its own subgroups.")
                    }
                }
                let before = group.auditSummary
                group.name = name
                group.parentID = parentID
                try connection.update(group)
                try connection.audit(.groupUpdated, subject: group.name, by: actor, before: before, after: group.auditSummary, at: now())
                return group
            }
        }
    }

    /// Only an empty group goes: devices and subgroups must move first, so none loses its policy by accident.
    @discardableResult
    func removeGroup(_ id: RecordID<DeviceGroupRecord>, by actor: Actor) async throws -> DeviceGroupRecord {
        do {
            return try await remove(id, audit: .groupDeleted, subject: \.name, by: actor)
        } catch StorageError.foreignKeyViolation {
            throw CatalogRefusal.conflict(.groupNotEmpty, "id", "That group still holds devices or subgroups. Move them to another group first.")
        }
    }

    private func valid(_ draft: GroupDraft) throws(CatalogRefusal) -> String {
        let errors = draft.validate()
        guard errors.isEmpty else { throw .invalid(errors) }
        return draft.normalised.name
    }

    private func requireParent(_ parentID: RecordID<DeviceGroupRecord>?, in connection: Connection) throws {
        if let parentID, try connection.find(DeviceGroupRecord.self, id: parentID) == nil {
            throw CatalogRefusal.invalid("parentID", "That parent group does not exist (any more). Choose another.")
        }
    }

    private func refusingDuplicates<T>(ofGroup name: String, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch StorageError.uniqueViolation {
            throw CatalogRefusal.conflict(.groupNameTaken, "name", "There is already a group called \(name).")
        }
    }

    // MARK: devices

    /// A device entered by hand (`tokenHash` nil) or enrolled by the simulator with the hash of
    /// the token it will check in with.
    func addDevice(_ draft: DeviceDraft, groupID: RecordID<DeviceGroupRecord>?, tokenHash: String? = nil,
                   by actor: Actor) async throws -> DeviceRecord {
        let device = try valid(draft)
        let time = now()
        return try await refusingDuplicates {
            try await database.write { connection in
                try requireGroup(groupID, in: connection)
                let saved = try connection.insert(DeviceRecord(
                    name: device.name, model: device.model ?? .iPad, osVersion: device.osVersion,
                    serialNumber: device.serialNumber, udid: device.udid, isSupervised: device.isSupervised, owner: device.owner,
                    groupID: groupID, installedApps: device.installedApps, enrolledAt: time, lastCheckInAt: nil, tokenHash: tokenHash))
                let enrolled = tokenHash != nil
                try connection.audit(enrolled ? .deviceEnrolled : .deviceCreated, subject: saved.name, by: actor,
                                     after: saved.auditSummary + (enrolled ? ", simulated" : ""), at: time)
                return saved
            }
        }
    }

    /// Replaces what an admin can say about the device; its token and history stay.
    func updateDevice(_ id: RecordID<DeviceRecord>, to draft: DeviceDraft, groupID: RecordID<DeviceGroupRecord>?,
                      by actor: Actor) async throws -> DeviceRecord {
        let device = try valid(draft)
        return try await refusingDuplicates {
            try await change(id, by: actor) { record, connection in
                try requireGroup(groupID, in: connection)
                record.apply(device, groupID: groupID)
            }
        }
    }

    /// Moves the device to `groupID` (nil: out of every group).
    @discardableResult
    func moveDevice(_ id: RecordID<DeviceRecord>, to groupID: RecordID<DeviceGroupRecord>?, by actor: Actor) async throws -> DeviceRecord {
        try await change(id, by: actor) { record, connection in
            try requireGroup(groupID, in: connection)
            record.groupID = groupID
        }
    }

    /// Gives the device a new check-in token (its hash; the caller shows the token once): the
    /// old token stops working with this commit.
    func replaceToken(of id: RecordID<DeviceRecord>, withHash hash: String, by actor: Actor) async throws {
        try await database.write { connection in
            var device = try connection.require(DeviceRecord.self, id: id)
            let hadToken = device.tokenHash != nil
            device.tokenHash = hash
            try connection.update(device)
            try connection.audit(.deviceTokenIssued, subject: device.name, by: actor,
                                 after: hadToken ? "Replaced the check-in token; the old one no longer works." : "Issued a check-in token.", at: now())
        }
    }

    /// Moves every device to `groupID` in one transaction (all or none), each move audited.
    @discardableResult
    func moveDevices(_ ids: [RecordID<DeviceRecord>], to groupID: RecordID<DeviceGroupRecord>?, by actor: Actor) async throws -> Int {
        try await database.write { connection in
            try requireGroup(groupID, in: connection)
            for id in ids {
                var device = try connection.require(DeviceRecord.self, id: id)
                guard device.groupID != groupID else { continue }
                let before = device.auditSummary
                device.groupID = groupID
                try connection.update(device)
                try connection.audit(.deviceUpdated, subject: device.name, by: actor, before: before, after: device.auditSummary, at: now())
            }
            return ids.count
        }
    }

    /// Removes the device; its uploaded logs stay under its name (they are the record of what
    /// happened, kept by the retention rules, not by the device's existence).
    /// Their device id is cleared after the removal commits, in the log store's file, so that
    /// no page joins them to a device that is gone. Should that fail, or the console stop
    /// between the two, `LogDeviceReconciliation` clears it at the next start; meanwhile no
    /// other device can take the id (ids are never given twice), so the removal stands and
    /// is reported as done.
    @discardableResult
    func removeDevice(_ id: RecordID<DeviceRecord>, by actor: Actor) async throws -> DeviceRecord {
        let removed = try await remove(id, audit: .deviceDeleted, subject: \.name, by: actor)
        do {
            _ = try await logs.writeFreeingRoom { try $0.execute(LogQueries.forgetDevice(id)) }
        } catch {
            Self.logger.warning("A removed device's log lines keep its id until the next start", metadata: ["device": "\(id)", "error": "\(error)"])
        }
        return removed
    }

    private static let logger = Logger(label: "payload-console.catalog")

    private func change(_ id: RecordID<DeviceRecord>, by actor: Actor,
                        _ edit: (inout DeviceRecord, Connection) throws -> Void) async throws -> DeviceRecord {
        try await database.write { connection in
            var device = try connection.require(DeviceRecord.self, id: id)
            let before = device.auditSummary
            try edit(&device, connection)
            try connection.update(device)
            try connection.audit(.deviceUpdated, subject: device.name, by: actor, before: before, after: device.auditSummary, at: now())
            return device
        }
    }

    private func valid(_ draft: DeviceDraft) throws(CatalogRefusal) -> DeviceDraft {
        let errors = draft.validate()
        guard errors.isEmpty else { throw .invalid(errors) }
        return draft.normalised
    }

    private func requireGroup(_ groupID: RecordID<DeviceGroupRecord>?, in connection: Connection) throws {
        if let groupID, try connection.find(DeviceGroupRecord.self, id: groupID) == nil {
            throw CatalogRefusal.invalid("groupID", "That group does not exist (any more). Choose another.")
        }
    }

    private func refusingDuplicates<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch StorageError.uniqueViolation(let constraint) {
            let (field, name) = constraint.contains("udid") ? ("udid", "UDID") : ("serialNumber", "serial number")
            throw CatalogRefusal.conflict(.deviceExists, field, "Another device already has this \(name).")
        }
    }

    // MARK: removing

    /// Deletes the record and writes its audit entry (what it was) in the same transaction.
    private func remove<R: Record & CatalogAudited>(_ id: RecordID<R>, audit action: AuditAction, subject: KeyPath<R, String>,
                                                     by actor: Actor) async throws -> R {
        try await database.write { connection in
            let record = try connection.require(R.self, id: id)
            try connection.delete(R.self, id: id)
            try connection.audit(action, subject: record[keyPath: subject], by: actor, before: record.auditSummary, at: now())
            return record
        }
    }
}

/// A catalog record as the audit log describes it before and after a change.
protocol CatalogAudited {
    var auditSummary: String { get }
}

extension AppRecord: CatalogAudited {
    /// How the audit log describes the app before and after a change.
    var auditSummary: String {
        "\(name) (\(bundleID)); \(traits.joined(separator: ", "))"
    }
}

extension DeviceGroupRecord: CatalogAudited {
    var auditSummary: String { "\(name), parent \(parentID?.description ?? "none")" }
}

extension DeviceRecord: CatalogAudited {
    var auditSummary: String {
        "\(name): \(model.rawValue) iOS \(osVersion), serial \(serialNumber), "
            + (isSupervised ? "supervised" : "not supervised") + ", group \(groupID?.description ?? "none")"
    }
}