import Domain
import Foundation
import Hummingbird
import Storage

/// The audit log: every change people made, newest first, paged by id so it stays fast as it
/// grows. Admins read it; it cannot be edited from the console.
struct AuditLogController {
    let services: Services
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
        let nextPage: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/audit", role: .admin) { request, context in
            let before = request.uri.formParameters["before"].flatMap { RecordID<AuditEvent>(String($0)) }
            let events = try await services.auditLog.entries(before: before, limit: Self.pageSize + 1)
            let page = events.prefix(Self.pageSize)
            let now = services.now
            let view = View(
                rows: page.map { event in
                    Row(time: DisplayTime.relative(event.occurredAt, now: now), isoTime: DisplayTime.iso(event.occurredAt),
                        actor: event.actorEmail, action: AuditWording.describe(event.action), code: event.action,
                        subject: event.subject, before: event.before, after: event.after,
                        hasDetails: event.before != nil || event.after != nil)
                },
                isEmpty: page.isEmpty,
                nextPage: events.count > Self.pageSize ? page.last?.id.map { Paths.audit + "?before=\($0)" } : nil)
            return try services.renderer.page("audit/index", title: "Audit log", model: view, request: request, context: context)
        }
    }
}
