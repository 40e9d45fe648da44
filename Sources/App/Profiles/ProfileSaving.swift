import Domain
import Foundation
import Hummingbird
import Storage

/// The one way a profile edit is saved: apply the edit to the version the admin started
/// from, and store it as the next version unless someone saved in between. Then the admin sees
/// both changes side by side instead of silently overwriting the other.
struct ProfileSaving {
    let profileStore: ProfileStore
    let profiles: ProfileReader
    let cookies: CookieJar
    let renderer: PageRenderer
    var store: ProfileStore { profileStore }

    struct ConflictView {
        let profilePath: String
        let name: String
        let base: Int
        let latest: Int
        let latestAuthor: String
        let theirs: [ChangeRow]
        let yours: [ChangeRow]
    }

    /// The field a save's confirmation sends, so the second time the save goes through.
    static let confirmation = "impactConfirmed"

    struct ChangeRow {
        let field: String
        let before: String
        let after: String
    }

    func save(profileID: RecordID<ProfileRecord>, base: Int, request: Request, context: SignedInContext, actor: Actor,
              note: String, action: AuditAction = .profileEdited, edit: (ProfileContent) throws -> ProfileContent) async throws -> Response {
        try await save(profileID: profileID, base: base, request: request, context: context, actor: actor,
                       noting: { _ in note }, action: action, edit: edit)
    }

    /// `noting` words the version's note from the content the edit started from. With
    /// `confirming` (the form as it was sent), a save that would change what devices get shows
    /// its impact first, with that form to send again once confirmed.
    func save(profileID: RecordID<ProfileRecord>, base: Int, request: Request, context: SignedInContext, actor: Actor,
              noting: (ProfileContent) -> String, action: AuditAction = .profileEdited, confirming: FormFields? = nil,
              edit: (ProfileContent) throws -> ProfileContent) async throws -> Response {
        let (found, latest) = try await profiles.editBase(base, of: profileID)
        guard let baseVersion = found else { throw StorageError.notFound(table: ProfileVersionRecord.tableName) }
        let edited = try edit(baseVersion.content)
        let note = noting(baseVersion.content)
        if edited == baseVersion.content && latest.number == base {
            return .seeOther(Site.Profiles.show.link(profileID), flash: .notice("Nothing changed, so no new version was made."),
                             cookies: cookies, request: request)
        }
        if let sent = confirming, sent[Self.confirmation] != "yes", latest.number == base {
            let preview = try await profiles.impact(of: .save(profileID, content: edited))
            if !preview.impact.changesNothing {
                let hidden = sent.pairs.filter { $0.name != "_csrf" }.map { ImpactPage.Hidden(name: $0.name, value: $0.value) }
                    + [ImpactPage.Hidden(name: Self.confirmation, value: "yes")]
                return try ImpactPage.render(preview, question: "Save “\(note)” in \(edited.name)?", confirmPath: request.uri.path,
                                             confirmLabel: "Save as version \(latest.number + 1)", hidden: hidden,
                                             renderer: renderer, request: request, context: context)
            }
        }
        do {
            let saved = try await store.saveVersion(of: profileID, basedOn: base, content: edited, note: note, action: action, by: actor)
            return .seeOther(Site.Profiles.show.link(profileID), flash: .notice("Saved as version \(saved.number)."),
                             cookies: cookies, request: request)
        } catch let conflict as ProfileStore.Conflict {
            return try conflictPage(profileID: profileID, base: baseVersion, latest: conflict.latest, edited: edited,
                                request: request, context: context)
        } catch StorageError.versionConflict {
            let latest = try await profiles.latestVersion(of: profileID)
            return try conflictPage(profileID: profileID, base: baseVersion, latest: latest, edited: edited, request: request, context: context)
        }
    }

    private func conflictPage(profileID: RecordID<ProfileRecord>, base: ProfileVersionRecord, latest: ProfileVersionRecord,
                              edited: ProfileContent, request: Request, context: SignedInContext) throws -> Response {
        let rows: ([ProfileChange]) -> [ChangeRow] = { changes in
            changes.map { ChangeRow(field: $0.field, before: $0.before ?? "(absent)", after: $0.after ?? "(absent)") }
        }
        let view = ConflictView(
            profilePath: Site.Profiles.show.link(profileID), name: latest.content.name, base: base.number, latest: latest.number,
            latestAuthor: latest.authorEmail,
            theirs: rows(ProfileDiff.changes(from: base.content, to: latest.content)),
            yours: rows(ProfileDiff.changes(from: base.content, to: edited)))
        return try renderer.page("profiles/conflict", title: "Not saved: the profile changed", model: view,
                                      request: request, context: context, status: .conflict)
    }
}

/// The groups a profile is assigned to, and the groups it could be.
struct AssignmentsView {
    struct Group {
        let name: String
        let devicesPath: String
        let unassignPath: String
    }

    let assigned: [Group]
    let available: [SelectOption]
    let canEdit: Bool
    let isAssigned: Bool
    let canAssignMore: Bool

    init(profile: RecordID<ProfileRecord>, groups: [DeviceGroupRecord], assigned assignedIDs: Set<RecordID<DeviceGroupRecord>>, canEdit: Bool) {
        let ordered = GroupsController.treeOrder(groups)
        assigned = ordered.filter { assignedIDs.contains($0.group.id) }.map {
            Group(name: $0.group.name, devicesPath: Site.Devices.list(in: $0.group.id), unassignPath: Site.Profiles.unassign.link(profile, $0.group.id))
        }
        available = ordered.filter { !assignedIDs.contains($0.group.id) }.map {
            SelectOption(group: $0.group, depth: $0.depth, selected: false)
        }
        self.canEdit = canEdit
        isAssigned = !assigned.isEmpty
        canAssignMore = !available.isEmpty
    }
}
