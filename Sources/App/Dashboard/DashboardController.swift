import Domain
import Foundation
import Hummingbird
import Storage

/// The first page after sign-in: in a demo console the stories to open first; for everyone
/// the fleet's health, each figure a link to the list it counts; how much there is; what
/// changed lately; and, while the console is new, what to do next.
struct DashboardController {
    let services: Services

    struct View {
        struct Count {
            let label: String
            let value: Int
            let href: String?
        }

        struct Signal {
            let text: String
            let href: String
            let needsAttention: Bool
        }

        struct Link {
            let label: String
            let href: String
        }

        struct Story {
            let id: String
            let title: String
            let summary: String
            let payloads: String
            let groupName: String
            let groupHref: String?
            let deviceCount: Int
            let simulators: [Link]
            let tourHref: String
        }

        struct Step {
            let text: String
            let href: String
            let linkText: String
            let done: Bool
        }

        let stories: [Story]
        let hasStories: Bool
        let health: [Signal]
        let counts: [Count]
        /// Apps near or at their log cap, each linking to its log page (helpdesk and admins).
        let capWarnings: [Step]
        let events: [ActivityFeed.Entry]
        let hasEvents: Bool
        let isAdmin: Bool
        let steps: [Step]
        /// Stored, not computed: Mustache reads stored properties only.
        let showSteps: Bool
    }

    static let feedLines = 10

    func register(on routes: SecuredRoutes) {
        routes.get("/dashboard", role: .viewer) { request, context in
            let user = context.user
            let now = services.now
            let figures = try await ConsoleFigures.load(from: services.database, contents: services.profileContents, now: now, role: user.role)
            let isAdmin = user.role.includes(.admin)
            let steps: [View.Step] = [
                .init(text: "Add your team: admins author policy, helpdesk staff look after devices, viewers read.",
                      href: Paths.users, linkText: "Users", done: figures.users > 1),
                .init(text: "Add the apps your devices run, with their bundle IDs.", href: Paths.apps, linkText: "Apps", done: figures.apps > 0),
                .init(text: "Create device groups such as “Lobby kiosks” or “Clinic iPads”.", href: Paths.groups, linkText: "Groups", done: figures.groups > 0),
                .init(text: "Add devices, or enroll simulated ones, and put them in groups.", href: Paths.devices, linkText: "Devices", done: figures.devices > 0),
                .init(text: "Create a profile, add payloads such as Single App Mode or DLP, and assign it to a group.",
                      href: Paths.profiles, linkText: "Profiles", done: figures.profiles > 0),
            ]
            let events = ActivityFeed.entries(figures.recentEvents, now: now, limit: Self.feedLines)
            let stories = figures.stories.map { Self.stories($0) } ?? []
            let view = View(
                stories: stories, hasStories: !stories.isEmpty,
                health: figures.health.signals.map { signal in
                    View.Signal(text: signal.text,
                                href: signal.href, needsAttention: signal.count > 0)
                },
                counts: [
                    .init(label: "Profiles", value: figures.profiles, href: Paths.profiles),
                    .init(label: "Devices", value: figures.devices, href: Paths.devices),
                    .init(label: "Device groups", value: figures.groups, href: Paths.groups),
                    .init(label: "Apps in the catalog", value: figures.apps, href: Paths.apps),
                    .init(label: "Console users", value: figures.users, href: isAdmin ? Paths.users : nil),
                ],
                capWarnings: user.role.includes(.helpdesk) ? figures.capWarnings.map { warning in
                    .init(text: warning.message(appName: figures.appNames[warning.app] ?? warning.app), href: Paths.logs(app: warning.app),
                          linkText: "Its logs", done: false)
                } : [],
                events: events,
                hasEvents: !events.isEmpty,
                isAdmin: isAdmin,
                steps: steps,
                showSteps: stories.isEmpty && (isAdmin ? steps.contains { !$0.done } : figures.devices == 0 || figures.profiles == 0))
            return try services.renderer.page("dashboard", title: "Dashboard", model: view, request: request, context: context)
        }
    }

    /// One tile per story, its group and simulator buttons linked where they still exist.
    static func stories(_ links: DemoStoryLinks) -> [View.Story] {
        DemoStory.all.map { story in
            let group = links.groups[story.group]
            return View.Story(
                id: story.id, title: story.title, summary: story.summary,
                payloads: story.payloads.map(\.displayName).joined(separator: " · "),
                groupName: story.group, groupHref: group.map { Paths.devices(in: $0.id) }, deviceCount: group?.devices ?? 0,
                simulators: story.simulatorDevices.compactMap { name in links.devices[name].map { View.Link(label: name, href: Paths.simulator($0)) } },
                tourHref: Paths.tour(story: story.id))
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
        case "profile.cloned": "copied a profile as"
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
