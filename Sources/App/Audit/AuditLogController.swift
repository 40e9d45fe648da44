import Domain
import Foundation
import Hummingbird
import Storage

/// The audit log: every change people made, newest first, one readable line each with the
/// values before and after on expand; filtered by person, kind of object, object and days,
/// paged by id so it stays fast as it grows, and downloadable as CSV. Admins read it; it
/// cannot be edited from the console.
struct AuditLogController {
    let auditLog: AuditLog
    let now: @Sendable () -> Date
    let renderer: PageRenderer
    static let pageSize = 50

    struct Row {
        let time: String
        let isoTime: String
        let actor: String
        let action: String
        let code: String
        let subject: String
        let before: String?
        let after: String?
        let hasDetails: Bool
    }

    struct View {
        let rows: [Row]
        let isEmpty: Bool
        let isFiltered: Bool
        let nextPage: String?
        let people: [SelectOption]
        let types: [SelectOption]
        let object: String
        let from: String
        let through: String
        /// Beside the date fields when the range ends before it starts.
        let rangeError: String?
        let csvPath: String
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Audit.log) { request, context in
            let filter = AuditFilter(request.uri.formParameters)
            // A reversed range matches nothing by construction: it is not asked for.
            let rangeProblem = filter.rangeProblem
            let (events, people) = try await auditLog.entries(filter, limit: rangeProblem == nil ? Self.pageSize + 1 : 0)
            let page = events.prefix(Self.pageSize)
            let now = self.now()
            let view = View(
                rows: page.map { event in
                    Row(time: DisplayTime.relative(event.occurredAt, now: now), isoTime: DisplayTime.iso(event.occurredAt),
                        actor: event.actorEmail, action: event.wording, code: event.action,
                        subject: event.subject, before: event.before, after: event.after,
                        hasDetails: event.before != nil || event.after != nil)
                },
                isEmpty: page.isEmpty, isFiltered: filter.isFiltered,
                nextPage: events.count > Self.pageSize ? page.last.map { Site.Audit.log.link() + "?" + filter.query(before: $0.id) } : nil,
                // A person from the address who has no entries stays chosen, so the select says
                // what the empty list is filtered by.
                people: [SelectOption(value: "", label: "Everyone", selected: filter.person == nil)]
                    + (people + (filter.person.map { people.contains($0) ? [] : [$0] } ?? []))
                        .map { SelectOption(value: $0, label: $0, selected: $0 == filter.person) },
                types: [SelectOption(value: "", label: "Everything", selected: filter.objectType == nil)]
                    + AuditFilter.ObjectType.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == filter.objectType) },
                object: filter.object, from: filter.from.map(AuditFilter.dayText) ?? "", through: filter.through.map(AuditFilter.dayText) ?? "",
                rangeError: rangeProblem, csvPath: Site.Audit.csv.link() + "?" + filter.query(before: nil))
            return try renderer.page("audit/index", title: "Audit log", model: view, request: request, context: context,
                                              status: rangeProblem == nil ? .ok : .unprocessableContent)
        }
        routes.on(Site.Audit.csv) { request, _ in
            try await AuditCSV.response(AuditFilter(request.uri.formParameters), log: auditLog, now: self.now())
        }
    }
}
