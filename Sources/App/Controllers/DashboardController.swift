import Domain
import Foundation
import Hummingbird
import Storage

/// The first page after sign-in: how much there is, what changed lately, and what to do next.
struct DashboardController {
    let services: Services

    struct View {
        struct Count {
            let label: String
            let value: Int
            let href: String?
        }

        struct Event {
            let time: String
            let isoTime: String
            let actor: String
            let action: String
            let subject: String
        }

        let counts: [Count]
        let events: [Event]
        let hasEvents: Bool
        let isAdmin: Bool
        let onlyOneUser: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/dashboard", .role(.viewer)) { request, context in
            let user = try context.requireUser()
            let now = services.now
            let (users, sessions, events) = try services.database.read { connection in
                (
                    try connection.count(User.query()),
                    try connection.count(UserSession.query().filter("expiresAt", .greater, now)),
                    try connection.fetch(AuditEvent.query().order(by: "occurredAt", .descending).order(by: "id", .descending).limit(10))
                )
            }
            let view = View(
                counts: [
                    .init(label: "Console users", value: users, href: user.role.includes(.admin) ? "/users" : nil),
                    .init(label: "Signed-in sessions", value: sessions, href: nil),
                ],
                events: events.map { event in
                    .init(time: DisplayTime.relative(event.occurredAt, now: now), isoTime: DisplayTime.iso(event.occurredAt),
                          actor: event.actorEmail, action: AuditWording.describe(event.action),
                          subject: event.subject == event.actorEmail ? "" : event.subject)
                },
                hasEvents: !events.isEmpty,
                isAdmin: user.role.includes(.admin),
                onlyOneUser: users == 1)
            return services.renderer.page("dashboard", title: "Dashboard", model: view, request: request, context: context)
        }
    }
}

/// Times as people read them in lists ("5 minutes ago"), with the exact ISO time alongside.
enum DisplayTime {
    static func relative(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return plural(seconds / 60, "minute") + " ago"
        case ..<86_400: return plural(seconds / 3600, "hour") + " ago"
        case ..<(86_400 * 14): return plural(seconds / 86_400, "day") + " ago"
        default: return iso(date).prefix(10).description
        }
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}

/// Audit actions are stored as stable codes ("user.created") and shown in words.
enum AuditWording {
    static func describe(_ action: String) -> String {
        switch action {
        case "user.created": "added the user"
        case "user.deleted": "removed the user"
        case "user.role_changed": "changed the role of"
        case "user.password_changed": "changed the password of"
        case "user.signed_in": "signed in"
        case "user.signed_out": "signed out"
        default: action
        }
    }
}
