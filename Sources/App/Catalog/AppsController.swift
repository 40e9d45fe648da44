import Domain
import Foundation
import Hummingbird
import Storage

/// The app catalog: every role reads it; admins add, edit and remove apps.
struct AppsController {
    let catalogReader: CatalogReader
    let renderer: PageRenderer
    let appConfigSpecs: AppConfigSpecStore
    let now: @Sendable () -> Date
    let cookies: CookieJar
    let catalog: CatalogService

    struct Row {
        let logsPath: String
        let editPath: String
        let deletePath: String
        let name: String
        let bundleID: String
        let color: String
        let traits: [String]
    }

    struct FormView {
        var action = Site.Apps.list.link()
        var submitLabel = "Add app"
        var name = ""
        var bundleID = ""
        var isManaged = true
        var isSDKBuilt = false
        var hasAssessmentEntitlement = false
        var iconColor = "#1e88e5"
        var roles = SelectOption.cases(\AppRole.displayName, selected: "")
        var deliveryMethods = SelectOption.cases(\AppDeliveryMethod.displayName, selected: "")
        var storeID = ""
        var manifestURL = ""
        var removeWithManagement = false
        var preventBackup = false
        var errors: [String: String] = [:]

        init() {}

        init(_ draft: CatalogAppDraft, errors: [String: String] = [:]) {
            name = draft.name
            bundleID = draft.bundleID
            isManaged = draft.isManaged
            isSDKBuilt = draft.isSDKBuilt
            hasAssessmentEntitlement = draft.hasAssessmentEntitlement
            iconColor = draft.iconColor.isEmpty ? "#1e88e5" : draft.iconColor
            roles = SelectOption.cases(\AppRole.displayName, selected: draft.role?.rawValue ?? "")
            deliveryMethods = SelectOption.cases(\AppDeliveryMethod.displayName, selected: draft.deliveryMethod?.rawValue ?? "")
            storeID = draft.storeID
            manifestURL = draft.manifestURL
            removeWithManagement = draft.removeWithManagement
            preventBackup = draft.preventBackup
            self.errors = errors
        }
    }

    struct IndexView {
        let rows: [Row]
        let isEmpty: Bool
        let canEdit: Bool
        /// Helpdesk and admins go from an app to its log page, crash groups first.
        let canReadLogs: Bool
        let form: FormView
    }

    struct EditView {
        let name: String
        let form: FormView
        let specfile: SpecfileView
        /// Where the app's managed configuration stands on real devices, in words; nil when no
        /// real device was given one.
        let delivery: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Apps.list) { request, context in
            try await index(form: FormView(), request: request, context: context)
        }
        routes.on(Site.Apps.add, use: create)
        routes.on(Site.Apps.edit) { id, request, context in
            let app = try await catalogReader.app(id)
            return try await edit(app, form: FormView(app.draft), request: request, context: context)
        }
        routes.on(Site.Apps.uploadSpecfile, use: uploadSpecfile)
        routes.on(Site.Apps.update, use: update)
        routes.on(Site.Apps.remove, use: delete)
    }

    private func index(form: FormView, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let apps = try await catalogReader.apps()
        let view = IndexView(
            rows: apps.map(Self.row), isEmpty: apps.isEmpty,
            canEdit: context.user.role.includes(.admin), canReadLogs: context.user.role.includes(.helpdesk), form: form)
        return try renderer.page("apps/index", title: "Apps", model: view, request: request, context: context, status: status)
    }

    private func edit(_ app: AppRecord, form: FormView, specfileError: String? = nil, request: Request, context: SignedInContext,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        var form = form
        form.action = Site.Apps.update.link(app.id)
        form.submitLabel = "Save app"
        let specfile = SpecfileView(app: app, stored: try await appConfigSpecs.spec(for: app.bundleID), error: specfileError, now: now())
        let delivery = try await catalogReader.configurationDelivery(of: app.bundleID)
        return try renderer.page("apps/edit", title: "Edit \(app.name)",
                                 model: EditView(name: app.name, form: form, specfile: specfile, delivery: delivery?.summary),
                                      request: request, context: context, status: status)
    }

    /// An AppConfig specfile for the app: read whole, refused with its line and reason, or
    /// kept as the app's keys for the managed app configuration form.
    @Sendable func uploadSpecfile(_ id: RecordID<AppRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let app = try await catalogReader.app(id)
        let file = context.files["specfile"] ?? UploadedFile(filename: "", bytes: [])
        switch try await appConfigSpecs.importSpec(file, for: id, by: Actor(context.user)) {
        case .success(let spec):
            let skipped = spec.skipped.isEmpty ? "" : " \(Counted.phrase(spec.skipped.count, "key")) not imported: see below."
            return .seeOther(Site.Apps.edit.link(id), flash: .notice("Imported \(Counted.phrase(spec.keys.count, "key")) from the specfile (version \(spec.version)).\(skipped)"),
                             cookies: cookies, request: request)
        case .failure(let problem):
            return try await edit(app, form: FormView(app.draft), specfileError: "Nothing was imported. \(problem.description)",
                                  request: request, context: context, status: .unprocessableContent)
        }
    }

    static func row(_ app: AppRecord) -> Row {
        Row(logsPath: Site.Logs.index(app: app.bundleID), editPath: Site.Apps.edit.link(app.id), deletePath: Site.Apps.remove.link(app.id), name: app.name, bundleID: app.bundleID,
                   color: app.iconColor.isEmpty ? "#607d8b" : app.iconColor, traits: app.traits)
    }

    static func draft(from form: FormFields) -> CatalogAppDraft {
        CatalogAppDraft(
            name: form["name"], bundleID: form["bundleID"], isManaged: form.isChecked("isManaged"),
            isSDKBuilt: form.isChecked("isSDKBuilt"), hasAssessmentEntitlement: form.isChecked("hasAssessmentEntitlement"),
            iconColor: form["iconColor"], role: AppRole(rawValue: form["role"]),
            deliveryMethod: AppDeliveryMethod(rawValue: form["deliveryMethod"]), storeID: form["storeID"], manifestURL: form["manifestURL"],
            removeWithManagement: form.isChecked("removeWithManagement"), preventBackup: form.isChecked("preventBackup"))
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        let draft = Self.draft(from: context.form)
        do {
            let app = try await catalog.addApp(draft, by: Actor(context.user))
            return .seeOther(Site.Apps.list.link(), flash: .notice("Added \(app.name)."), cookies: cookies, request: request)
        } catch let refusal as CatalogRefusal {
            return try await index(form: FormView(draft, errors: refusal.messages), request: request, context: context, status: .unprocessableContent)
        }
    }

    @Sendable func update(_ id: RecordID<AppRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let draft = Self.draft(from: context.form)
        do {
            let app = try await catalog.updateApp(id, to: draft, by: Actor(context.user))
            return .seeOther(Site.Apps.list.link(), flash: .notice("Saved \(app.name)."), cookies: cookies, request: request)
        } catch let refusal as CatalogRefusal {
            let existing = try await catalogReader.app(id)
            return try await edit(existing, form: FormView(draft, errors: refusal.messages), request: request, context: context, status: .unprocessableContent)
        }
    }

    @Sendable func delete(_ id: RecordID<AppRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let app = try await catalog.removeApp(id, by: Actor(context.user))
        return .seeOther(Site.Apps.list.link(), flash: .notice("Removed \(app.name) from the catalog."), cookies: cookies, request: request)
    }
}
