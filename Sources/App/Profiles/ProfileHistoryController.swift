import Domain
import Foundation
import Hummingbird
import Storage

/// A profile's history: every version with author and time, a field-by-field comparison of
/// any two, and restoring an old version as a new one.
struct ProfileHistoryController {
    let now: @Sendable () -> Date
    let profiles: ProfileReader
    let renderer: PageRenderer
    let assignments: AssignmentService
    let cookies: CookieJar
    let profilePage: ProfilesController
    let saving: ProfileSaving

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
        routes.on(Site.Profiles.history, use: history)
        routes.on(Site.Profiles.restore, use: restore)
        routes.on(Site.Profiles.assign, use: assign)
        routes.on(Site.Profiles.unassign, use: unassign)
    }

    @Sendable func history(_ id: RecordID<ProfileRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let now = self.now()
        let (profile, versions) = try await profiles.history(id)
        let numbers = Set(versions.map(\.number))
        let query = request.uri.formParameters
        let to = query["to"].flatMap { Int(String($0)) }.flatMap { numbers.contains($0) ? $0 : nil } ?? profile.version
        let from = query["from"].flatMap { Int(String($0)) }.flatMap { numbers.contains($0) ? $0 : nil } ?? max(1, to - 1)
        let byNumber = Dictionary(uniqueKeysWithValues: versions.map { ($0.number, $0) })
        let diff = byNumber[from].flatMap { old in byNumber[to].map { new in VersionDiff(from: old.content, to: new.content, headings: ("Version \(from)", "Version \(to)")) } }
        let view = HistoryView(
            profilePath: Site.Profiles.show.link(id), historyPath: Site.Profiles.history.link(id), name: profile.name,
            versions: versions.map {
                VersionRow(number: $0.number, path: Site.Profiles.version.link(id, $0.number), note: $0.note, author: $0.authorEmail, time: DisplayTime.relative($0.createdAt, now: now),
                           isoTime: DisplayTime.iso($0.createdAt), isLatest: $0.number == profile.version,
                           fromSelected: $0.number == from, toSelected: $0.number == to)
            },
            from: from, to: to,
            diff: diff, hasChanges: !(diff?.isEmpty ?? true), comparing: versions.count > 1,
            canRestore: context.user.role.includes(.admin))
        return try renderer.page("profiles/history", title: "History of \(profile.name)", model: view, request: request, context: context)
    }

    @Sendable func restore(_ id: RecordID<ProfileRecord>, _ number: Int, request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let (old, latest) = try await profiles.editBase(number, of: id)
        guard let old else { throw StorageError.notFound(table: ProfileVersionRecord.tableName) }
        // Restoring starts from the latest version on purpose: it is a new edit that puts the
        // old content back, and a concurrent save still makes it a conflict.
        return try await saving.save(
            profileID: id, base: Int(context.form["baseVersion"]) ?? latest.number, request: request, context: context,
            actor: actor, noting: { _ in "Restored version \(number)" }, action: .profileRestored, confirming: context.form) { _ in old.content }
    }

    @Sendable func assign(_ id: RecordID<ProfileRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let refused = { (message: String) in
            try await profilePage.show(id, request: request, context: context, number: nil,
                                                                  assignError: message, status: .unprocessableContent)
        }
        // The select offers only real groups: anything else is a stale page or a forged form.
        guard let groupID = RecordID<DeviceGroupRecord>(context.form["groupID"]) else {
            return try await refused("Choose a group to assign the profile to.")
        }
        do {
            let change = try await assignments.assign(id, to: groupID, by: Actor(context.user))
            let message = change.changed ? "\(change.profile.name) now reaches \(change.group.name)." : "The profile was already assigned to that group."
            return .seeOther(Site.Profiles.show.link(id), flash: .notice(message), cookies: cookies, request: request)
        } catch let refusal as CatalogRefusal {
            return try await refused(refusal.firstField.message)
        }
    }

    @Sendable func unassign(_ id: RecordID<ProfileRecord>, _ groupID: RecordID<DeviceGroupRecord>, request: Request,
                            context: SignedInContext) async throws -> Response {
        let change = try await assignments.unassign(id, from: groupID, by: Actor(context.user))
        let message = change.changed ? "\(change.profile.name) no longer reaches \(change.group.name)."
            : "\(change.profile.name) was not assigned to \(change.group.name); nothing changed."
        return .seeOther(Site.Profiles.show.link(id), flash: .notice(message), cookies: cookies, request: request)
    }
}
