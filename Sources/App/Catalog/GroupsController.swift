import Domain
import Foundation
import Hummingbird
import Storage

/// Device groups, shown as a tree. Profiles are assigned to groups; a device gets what reaches
/// its group and the groups above it.
struct GroupsController {
    let catalogReader: CatalogReader
    let renderer: PageRenderer
    let catalog: CatalogService
    let cookies: CookieJar

    struct Row {
        let pagePath: String
        let devicesPath: String
        let editPath: String
        let deletePath: String
        let name: String
        let depth: Int
        let isNested: Bool
        let deviceCount: Int
        let parentName: String?
    }

    struct FormView {
        var action = Site.Groups.list.link()
        var submitLabel = "Add group"
        var name = ""
        var parents: [SelectOption] = []
        var errors: [String: String] = [:]
    }

    struct IndexView {
        let rows: [Row]
        let isEmpty: Bool
        let canEdit: Bool
        let form: FormView
    }

    struct EditView {
        let name: String
        let form: FormView
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Groups.list) { request, context in
            try await index(form: FormView(), parentID: nil, request: request, context: context)
        }
        routes.on(Site.Groups.add, use: create)
        routes.on(Site.Groups.edit) { id, request, context in
            try await edit(id, submitted: nil,
                           request: request, context: context)
        }
        routes.on(Site.Groups.show) { id, request, context in
            let overview = try await catalogReader.groupOverview(id)
            return try renderer.page("groups/show", title: overview.group.name,
                                              model: GroupPage(overview, canEdit: context.user.role.includes(.admin)), request: request, context: context)
        }
        routes.on(Site.Groups.update, use: update)
        routes.on(Site.Groups.remove, use: delete)
    }

    /// Groups in tree order (each followed by its subgroups), with their depth.
    static func treeOrder(_ groups: [DeviceGroupRecord]) -> [(group: DeviceGroupRecord, depth: Int)] {
        let children = Dictionary(grouping: groups, by: \.parentID)
        var ordered: [(DeviceGroupRecord, Int)] = []
        var visited: Set<RecordID<DeviceGroupRecord>> = []
        func visit(_ parent: RecordID<DeviceGroupRecord>?, depth: Int) {
            for group in (children[parent] ?? []).sorted(by: { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }) {
                let id = group.id
                guard visited.insert(id).inserted else { continue }
                ordered.append((group, depth))
                visit(id, depth: depth + 1)
            }
        }
        visit(nil, depth: 0)
        return ordered
    }

    private func parentOptions(_ groups: [DeviceGroupRecord], selected: RecordID<DeviceGroupRecord>?, excluding: RecordID<DeviceGroupRecord>? = nil) -> [SelectOption] {
        SelectOption.groups(groups, first: SelectOption(value: "", label: "None (top level)", selected: selected == nil), selected: selected, excluding: excluding)
    }

    private func index(form: FormView, parentID: RecordID<DeviceGroupRecord>?, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (groups, deviceCounts) = try await catalogReader.groupsWithDeviceCounts()
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
        var form = form
        form.parents = parentOptions(groups, selected: parentID)
        let rows = Self.treeOrder(groups).map { entry in
            Row(pagePath: Site.Groups.show.link(entry.group.id), devicesPath: Site.Devices.list(in: entry.group.id), editPath: Site.Groups.edit.link(entry.group.id), deletePath: Site.Groups.remove.link(entry.group.id), name: entry.group.name, depth: entry.depth,
                isNested: entry.depth > 0, deviceCount: deviceCounts[entry.group.id.rawValue] ?? 0,
                parentName: entry.group.parentID.flatMap { names[$0] })
        }
        let view = IndexView(rows: rows, isEmpty: rows.isEmpty, canEdit: context.user.role.includes(.admin), form: form)
        return try renderer.page("groups/index", title: "Device groups", model: view, request: request, context: context, status: status)
    }

    /// The edit form: the group as stored, or after a refused save with what was sent.
    private func edit(_ id: RecordID<DeviceGroupRecord>, submitted: Submitted?,
                      request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        // Every group, for the parent choices: the one edited is among them.
        let groups = try await catalogReader.groups()
        guard let group = groups.first(where: { $0.id == id }) else { throw StorageError.notFound(table: DeviceGroupRecord.tableName) }
        let form = FormView(action: Site.Groups.show.link(id), submitLabel: "Save group", name: submitted?.name ?? group.name,
                            parents: parentOptions(groups, selected: submitted.map(\.parentID) ?? group.parentID, excluding: id),
                            errors: submitted?.errors ?? [:])
        return try renderer.page("groups/edit", title: "Edit \(group.name)", model: EditView(name: group.name, form: form),
                                      request: request, context: context, status: status)
    }

    private struct Submitted {
        let name: String
        let parentID: RecordID<DeviceGroupRecord>?
        var errors: [String: String] = [:]

        init(_ form: FormFields) {
            let draft = GroupDraft(name: form["name"])
            name = draft.normalised.name
            parentID = RecordID(form["parentID"])
            errors = draft.validate().messages
            if !form["parentID"].isEmpty && parentID == nil { errors["parentID"] = "Choose a group from the list." }
        }
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        var submitted = Submitted(context.form)
        if submitted.errors.isEmpty {
            do {
                let group = try await catalog.addGroup(GroupDraft(name: submitted.name), parentID: submitted.parentID,
                                                          by: Actor(context.user))
                return .seeOther(Site.Groups.list.link(), flash: .notice("Added the group \(group.name)."), cookies: cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        let form = FormView(name: submitted.name, errors: submitted.errors)
        return try await index(form: form, parentID: submitted.parentID, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func update(_ id: RecordID<DeviceGroupRecord>, request: Request, context: SignedInContext) async throws -> Response {
        var submitted = Submitted(context.form)
        if submitted.errors.isEmpty {
            do {
                let group = try await catalog.updateGroup(id, to: GroupDraft(name: submitted.name), parentID: submitted.parentID,
                                                             by: Actor(context.user))
                return .seeOther(Site.Groups.list.link(), flash: .notice("Saved the group \(group.name)."), cookies: cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await edit(id, submitted: submitted, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func delete(_ id: RecordID<DeviceGroupRecord>, request: Request, context: SignedInContext) async throws -> Response {
        do {
            let group = try await catalog.removeGroup(id, by: Actor(context.user))
            return .seeOther(Site.Groups.list.link(), flash: .notice("Removed the group \(group.name)."), cookies: cookies, request: request)
        } catch let refusal as CatalogRefusal {
            return .seeOther(Site.Groups.show.link(id), flash: .error(refusal.firstField.message), cookies: cookies, request: request)
        }
    }
}
