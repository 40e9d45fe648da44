import Domain
import Foundation
import Hummingbird
import Markdown
import Mustache
import Storage

/// The profile list, creating profiles, a profile's page (any version), editing its name and
/// description, and deleting it.
struct ProfilesController {
    let profileStore: ProfileStore
    let cookies: CookieJar
    let now: @Sendable () -> Date
    let profiles: ProfileReader
    let renderer: PageRenderer
    let profileImporter: ProfileImporter
    let saving: ProfileSaving
    var store: ProfileStore { profileStore }

    /// One table row. Rows are written as escaped HTML rather than through the template: with
    /// fifty of them, reflection in the template engine was most of the page's time.
    struct Row {
        let path: String
        let name: String
        let identifier: String
        let version: Int
        let kinds: [String]
        let groups: Int
        let updated: String

        var html: String {
            let tags = kinds.isEmpty ? "<span class=\"muted\">none yet</span>"
                : kinds.map { "<span class=\"tag\">\(HTMLText.escape($0))</span> " }.joined()
            return "<tr><td><a href=\"\(path)\">\(HTMLText.escape(name))</a><br><code class=\"small\">\(HTMLText.escape(identifier))</code></td>"
                + "<td>\(tags)</td><td>\(version)</td><td>\(groups)</td><td>\(HTMLText.escape(updated))</td></tr>\n"
        }
    }

    struct NewForm {
        var name = ""
        var identifier = ""
        var descriptionMarkdown = ""
        var errors: [String: String] = [:]
    }

    struct IndexView {
        let rowsHTML: String
        let isEmpty: Bool
        let canEdit: Bool
        let form: NewForm
        /// Why the last .mobileconfig upload was refused.
        let importError: String?
        let identifierPrefix: String
        let total: Int
        var totalText: String { Counted.phrase(total, "profile") }
        let nextPage: String?
    }

    static let pageSize = 50

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Profiles.list) { request, context in
            try await index(form: NewForm(), request: request, context: context)
        }
        routes.on(Site.Profiles.add, use: create)
        routes.on(Site.Profiles.importFile, use: importProfile)
        routes.on(Site.Profiles.show) { id, request, context in
            try await show(id, request: request, context: context, number: nil)
        }
        routes.on(Site.Profiles.version) { id, number, request, context in
            try await show(id, request: request, context: context, number: number)
        }
        routes.on(Site.Profiles.saveDetails, use: saveDetails)
        routes.on(Site.Profiles.remove, use: delete)
        routes.on(Site.Profiles.clone) { id, request, context in
            let copy = try await store.clone(id, by: Actor(context.user))
            return .seeOther(Site.Profiles.show.link(copy.id), flash: .notice("Copied as \(copy.name) (\(copy.identifier)). It is not assigned to any group yet."),
                             cookies: cookies, request: request)
        }
    }

    static let identifierPrefix = "com.example.profiles"

    func index(form: NewForm, importError: String? = nil, request: Request, context: SignedInContext,
               status: HTTPResponse.Status = .ok) async throws -> Response {
        let now = self.now()
        let after = request.uri.formParameters["after"].flatMap { RecordID<ProfileRecord>(String($0)) }
        let (profiles, total) = try await self.profiles.listPage(after: after, limit: Self.pageSize)
        let page = profiles.prefix(Self.pageSize)
        let rows = page.map { profile in
            Row(path: Site.Profiles.show.link(profile.id), name: profile.name, identifier: profile.identifier, version: profile.version,
                kinds: (profile.kinds ?? "").split(separator: ",").compactMap { PayloadKind(rawValue: String($0))?.displayName },
                groups: profile.groups, updated: DisplayTime.relative(profile.updatedAt, now: now))
        }
        let view = IndexView(rowsHTML: rows.map(\.html).joined(), isEmpty: rows.isEmpty, canEdit: context.user.role.includes(.admin),
                             form: form, importError: importError, identifierPrefix: Self.identifierPrefix, total: total,
                             nextPage: profiles.count > Self.pageSize ? page.last.map { Site.Profiles.list.link() + "?after=\($0.id)" } : nil)
        return try renderer.page("profiles/index", title: "Profiles", model: view, request: request, context: context, status: status)
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        var form = NewForm(name: context.form["name"].trimmingWhitespace(), identifier: context.form["identifier"].trimmingWhitespace(),
                           descriptionMarkdown: context.form["description"])
        if form.identifier.isEmpty && ProfileRules.nameProblem(form.name) == nil {
            form.identifier = ProfileRules.suggestedIdentifier(prefix: Self.identifierPrefix, name: form.name)
        }
        if let problem = ProfileRules.nameProblem(form.name) { form.errors["name"] = problem }
        if let problem = ProfileRules.identifierProblem(form.identifier) { form.errors["identifier"] = problem }
        if let problem = ProfileRules.descriptionProblem(form.descriptionMarkdown) { form.errors["description"] = problem }
        if form.errors.isEmpty {
            do {
                let profile = try await store.create(identifier: form.identifier, content: ProfileContent(
                    name: form.name, descriptionMarkdown: form.descriptionMarkdown), by: actor)
                return .seeOther(Site.Profiles.show.link(profile.id), flash: .notice("Created \(form.name). Add payloads to it below."),
                                 cookies: cookies, request: request)
            } catch StorageError.uniqueViolation {
                form.errors["identifier"] = "Another profile already uses the identifier \(form.identifier)."
            }
        }
        return try await index(form: form, request: request, context: context, status: .unprocessableContent)
    }

    // MARK: one profile

    struct PayloadRow {
        let kind: String
        let editPath: String
        let removePath: String
        let name: String
        let summary: String
        let present: Bool
        /// "Apple", "SDK" or "MDM" (`PayloadKind.channel`).
        let channel: String
        let details: [String]
    }

    struct VersionLink {
        let number: Int
        let note: String
        let author: String
        let time: String
        let isShown: Bool
    }

    /// The profile's own addresses, for the version shown.
    struct Links {
        let page: String
        let history: String
        let details: String
        let delete: String
        let export: String
        let exportSigned: String
        let restore: String
        let clone: String
        /// The assign form goes to the impact preview first; the preview posts the assignment.
        let assignPreview: String

        init(_ id: RecordID<ProfileRecord>, version: Int) {
            page = Site.Profiles.show.link(id)
            history = Site.Profiles.history.link(id)
            details = Site.Profiles.saveDetails.link(id)
            delete = Site.Profiles.remove.link(id)
            export = Site.Profiles.export(id, version, signed: false)
            exportSigned = Site.Profiles.export(id, version, signed: true)
            restore = Site.Profiles.restore.link(id, version)
            clone = Site.Profiles.clone.link(id)
            assignPreview = Site.Profiles.assignmentPreview.link(id)
        }
    }

    struct ShowView {
        let links: Links
        let name: String
        let identifier: String
        let number: Int
        let latestNumber: Int
        /// The number a restore or a save gives.
        let nextNumber: Int
        let isLatest: Bool
        let descriptionHTML: String
        let descriptionMarkdown: String
        let hasDescription: Bool
        let payloads: [PayloadRow]
        let canEdit: Bool
        let canRestore: Bool
        let versions: [VersionLink]
        let assignments: AssignmentsView
        let detailsErrors: [String: String]
        /// Why the group chosen in the assign form was refused.
        let assignError: String?
        /// Problems this profile causes together with others, per group it reaches.
        let policyProblems: [String]
    }

    func show(_ id: RecordID<ProfileRecord>, request: Request, context: SignedInContext, number: Int?, detailsErrors: [String: String] = [:],
              assignError: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let canEdit = context.user.role.includes(.admin)
        let now = self.now()
        let overview = try await self.profiles.overview(of: id, version: number)
        let (profile, shown, versions) = (overview.profile, overview.shown, overview.versions)
        let content = shown.content
        let view = ShowView(
            links: Links(id, version: shown.number), name: content.name, identifier: profile.identifier, number: shown.number,
            latestNumber: profile.version, nextNumber: profile.version + 1, isLatest: shown.number == profile.version,
            // Sanitised HTML produced by our Markdown renderer.
            descriptionHTML: MarkdownRenderer.html(content.descriptionMarkdown),
            descriptionMarkdown: content.descriptionMarkdown, hasDescription: !content.descriptionMarkdown.isEmpty,
            // The kinds a version lacks are listed only where they can be added (the latest
            // version, for an admin); an old version lists what it holds.
            payloads: PayloadKind.allCases.filter { canEdit && shown.number == profile.version || content.payload(of: $0) != nil }.map { kind in
                let payload = content.payload(of: kind)
                return PayloadRow(kind: kind.rawValue, editPath: Site.Profiles.payloadForm.link(id, kind), removePath: Site.Profiles.removePayload.link(id, kind), name: kind.displayName, summary: kind.summary, present: payload != nil,
                                  channel: kind.channel, details: payload.map(PayloadSummary.lines) ?? [])
            },
            canEdit: canEdit && shown.number == profile.version,
            canRestore: canEdit && shown.number != profile.version,
            versions: versions.map {
                VersionLink(number: $0.number, note: $0.note, author: $0.authorEmail,
                            time: DisplayTime.relative($0.createdAt, now: now), isShown: $0.number == shown.number)
            },
            assignments: AssignmentsView(profile: id, groups: overview.groups, assigned: overview.assignedGroupIDs, canEdit: canEdit),
            detailsErrors: detailsErrors,
            assignError: assignError,
            policyProblems: overview.policyProblems)
        return try renderer.page("profiles/show", title: content.name, model: view, request: request, context: context, status: status)
    }

    @Sendable func saveDetails(_ id: RecordID<ProfileRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let actor = Actor(context.user)
        let name = context.form["name"].trimmingWhitespace()
        let description = context.form["description"]
        var errors: [String: String] = [:]
        if let problem = ProfileRules.nameProblem(name) { errors["name"] = problem }
        if let problem = ProfileRules.descriptionProblem(description) { errors["description"] = problem }
        guard errors.isEmpty else {
            return try await show(id, request: request, context: context, number: nil, detailsErrors: errors, status: .unprocessableContent)
        }
        let base = Int(context.form["baseVersion"]) ?? 0
        return try await saving.save(profileID: id, base: base, request: request, context: context, actor: actor,
                                                          note: "Edited name and description") { current in
            var content = current
            content.name = name
            content.descriptionMarkdown = description
            return content
        }
    }

    @Sendable func delete(_ id: RecordID<ProfileRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let profile = try await store.delete(id, by: Actor(context.user))
        return .seeOther(Site.Profiles.list.link(), flash: .notice("Deleted \(profile.name) and its history."), cookies: cookies, request: request)
    }
}

// The profile list is a hot page; its models answer the template engine without reflection.
extension ProfilesController.IndexView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "rowsHTML": rowsHTML
        case "isEmpty": isEmpty
        case "canEdit": canEdit
        case "form": form
        case "importError": importError
        case "identifierPrefix": identifierPrefix
        case "total": total
        case "totalText": totalText
        case "nextPage": nextPage
        default: nil
        }
    }
}

extension ProfilesController.NewForm: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "identifier": identifier
        case "descriptionMarkdown": descriptionMarkdown
        case "errors": errors
        default: nil
        }
    }
}

