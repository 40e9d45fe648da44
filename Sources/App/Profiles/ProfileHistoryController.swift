import Domain
import Foundation
import Hummingbird
import Storage

/// A profile's history: every version with author and time, a field-by-field comparison of
/// any two, and restoring an old version as a new one.
struct ProfileHistoryController {
    let services: Services

    struct VersionRow {
        let number: Int
        let path: String
        let note: String
        let author: String
        let time: String
        let isoTime: String
        let isLatest: Bool
        let fromSelected: Bool
        let toSelected: Bool
    }

    struct HistoryView {
        let profilePath: String
        /// Where the compare form asks.
        let historyPath: String
        let name: String
        let versions: [VersionRow]
        let from: Int
        let to: Int
        let diff: VersionDiff?
        let hasChanges: Bool
        let comparing: Bool
        let canRestore: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/profiles/{id}/history", role: .viewer, use: history)
        routes.post("/profiles/{id}/versions/{number}/restore", role: .admin, use: restore)
        routes.post("/profiles/{id}/assignments", role: .admin, use: assign)
        routes.post("/profiles/{id}/assignments/{group}/remove", role: .admin, use: unassign)
    }

    @Sendable func history(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let now = services.now
        let (profile, versions) = try await services.profiles.history(id)
        let numbers = Set(versions.map(\.number))
        let query = request.uri.formParameters
        let to = query["to"].flatMap { Int(String($0)) }.flatMap { numbers.contains($0) ? $0 : nil } ?? profile.version
        let from = query["from"].flatMap { Int(String($0)) }.flatMap { numbers.contains($0) ? $0 : nil } ?? max(1, to - 1)
        let byNumber = Dictionary(uniqueKeysWithValues: versions.map { ($0.number, $0) })
        let diff = byNumber[from].flatMap { old in byNumber[to].map { new in VersionDiff(from: old.content, to: new.content, headings: ("Version \(from)", "Version \(to)")) } }
        let view = HistoryView(
            profilePath: Paths.profile(id), historyPath: Paths.profileHistory(id), name: profile.name,
            versions: versions.map {
                VersionRow(number: $0.number, path: Paths.profileVersion(id, $0.number), note: $0.note, author: $0.authorEmail, time: DisplayTime.relative($0.createdAt, now: now),
                           isoTime: DisplayTime.iso($0.createdAt), isLatest: $0.number == profile.version,
                           fromSelected: $0.number == from, toSelected: $0.number == to)
            },
            from: from, to: to,
            diff: diff, hasChanges: !(diff?.isEmpty ?? true), comparing: versions.count > 1,
            canRestore: context.user.role.includes(.admin))
        return try services.renderer.page("profiles/history", title: "History of \(profile.name)", model: view, request: request, context: context)
    }

    @Sendable func restore(request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let number = try context.parameters.require("number", as: Int.self)
        let (old, latest) = try await services.profiles.editBase(number, of: id)
        guard let old else { throw StorageError.notFound(table: ProfileVersionRecord.tableName) }
        // Restoring starts from the latest version on purpose: it is a new edit that puts the
        // old content back, and a concurrent save still makes it a conflict.
        return try await ProfileSaving(services: services).save(
            profileID: id, base: Int(context.form["baseVersion"]) ?? latest.number, request: request, context: context,
            actor: actor, noting: { _ in "Restored version \(number)" }, action: .profileRestored, confirming: context.form) { _ in old.content }
    }

    @Sendable func assign(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let refused = { (message: String) in
            try await ProfilesController(services: services).show(request: request, context: context, number: nil,
                                                                  assignError: message, status: .unprocessableContent)
        }
        // The select offers only real groups: anything else is a stale page or a forged form.
        guard let groupID = RecordID<DeviceGroupRecord>(context.form["groupID"]) else {
            return try await refused("Choose a group to assign the profile to.")
        }
        do {
            let change = try await services.assignments.assign(id, to: groupID, by: Actor(context.user))
            let message = change.changed ? "\(change.profile.name) now reaches \(change.group.name)." : "The profile was already assigned to that group."
            return .seeOther(Paths.profile(id), flash: .notice(message), cookies: services.cookies, request: request)
        } catch let refusal as CatalogRefusal {
            return try await refused(refusal.firstField.message)
        }
    }

    @Sendable func unassign(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<ProfileRecord>.self)
        let groupID = try context.parameters.require("group", as: RecordID<DeviceGroupRecord>.self)
        let change = try await services.assignments.unassign(id, from: groupID, by: Actor(context.user))
        let message = change.changed ? "\(change.profile.name) no longer reaches \(change.group.name)."
            : "\(change.profile.name) was not assigned to \(change.group.name); nothing changed."
        return .seeOther(Paths.profile(id), flash: .notice(message), cookies: services.cookies, request: request)
    }
}
