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

        struct Step {
            let text: String
            let href: String
            let linkText: String
            let done: Bool
        }

        let counts: [Count]
        /// Apps near or at their log cap, each linking to its log page (helpdesk and admins).
        let capWarnings: [Step]
        let events: [Event]
        let hasEvents: Bool
        let isAdmin: Bool
        let steps: [Step]
        /// Stored, not computed: Mustache reads stored properties only.
        let showSteps: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/dashboard", role: .viewer) { request, context in
            let user = context.user
            let now = services.now
            let counts = try await ConsoleFigures.load(from: services.database)
            let events = counts.recentEvents
            let isAdmin = user.role.includes(.admin)
            let steps: [View.Step] = [
                .init(text: "Add your team: admins author policy, helpdesk staff look after devices, viewers read.",
                      href: Paths.users, linkText: "Users", done: counts.users > 1),
                .init(text: "Add the apps your devices run, with their bundle IDs.", href: Paths.apps, linkText: "Apps", done: counts.apps > 0),
                .init(text: "Create device groups such as “Lobby kiosks” or “Clinic iPads”.", href: Paths.groups, linkText: "Groups", done: counts.groups > 0),
                .init(text: "Add devices, or enroll simulated ones, and put them in groups.", href: Paths.devices, linkText: "Devices", done: counts.devices > 0),
                .init(text: "Create a profile, add payloads such as Single App Mode or DLP, and assign it to a group.",
                      href: Paths.profiles, linkText: "Profiles", done: counts.profiles > 0),
            ]
            let view = View(
                counts: [
                    .init(label: "Profiles", value: counts.profiles, href: Paths.profiles),
                    .init(label: "Devices", value: counts.devices, href: Paths.devices),
                    .init(label: "Device groups", value: counts.groups, href: Paths.groups),
                    .init(label: "Apps in the catalog", value: counts.apps, href: Paths.apps),
                    .init(label: "Console users", value: counts.users, href: isAdmin ? Paths.users : nil),
                ],
                capWarnings: user.role.includes(.helpdesk) ? counts.capWarnings.map { warning in
                    .init(text: warning.message(appName: counts.appNames[warning.app] ?? warning.app), href: Paths.logs(app: warning.app),
                          linkText: "Its logs", done: false)
                } : [],
                events: events.map { event in
                    .init(time: DisplayTime.relative(event.occurredAt, now: now), isoTime: DisplayTime.iso(event.occurredAt),
                          actor: event.actorEmail, action: AuditWording.describe(event.action),
                          subject: event.subject == event.actorEmail ? "" : event.subject)
                },
                hasEvents: !events.isEmpty,
                isAdmin: isAdmin,
                steps: steps,
                showSteps: isAdmin ? steps.contains { !$0.done } : counts.devices == 0 || counts.profiles == 0)
            return try services.renderer.page("dashboard", title: "Dashboard", model: view, request: request, context: context)
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
        case "app.created": "added the app"
        case "app.updated": "changed the app"
        case "app.deleted": "removed the app"
        case "group.created": "added the group"
        case "group.updated": "changed the group"
        case "group.deleted": "removed the group"
        case "device.created": "added the device"
        case "device.updated": "changed the device"
        case "device.deleted": "removed the device"
        case "profile.created": "created the profile"
        case "signing.replaced": "replaced the signing certificate with"
        case "token.created": "created the API token"
        case "token.revoked": "revoked the API token"
        case "profile.edited": "saved a new version of"
        case "profile.restored": "restored an old version of"
        case "profile.deleted": "deleted the profile"
        case "profile.assigned": "assigned the profile"
        case "profile.unassigned": "unassigned the profile"
        case "logs.deleted": "deleted log lines:"
        case "device.command": "queued a command for"
        case "device.enrolled": "enrolled"
        case "device.token_issued": "issued a check-in token for"
        case "note.added": "added a note on"
        case "note.edited": "edited a note on"
        case "note.deleted": "deleted a note on"
        case "settings.updated": "changed the console settings:"
        default: action
        }
    }
}
