import Domain
import Foundation
import Hummingbird
import Storage

/// The first page after sign-in: in a demo console the stories to open first; for everyone
/// the fleet's health, each figure a link to the list it counts; how much there is; what
/// changed lately; and, while the console is new, what to do next.
struct DashboardController {
    let now: @Sendable () -> Date
    let database: Database
    let logs: Database
    let profileContents: ProfileContentCache
    let renderer: PageRenderer

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
            let deviceCount: String
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
        routes.on(Site.dashboard) { request, context in
            let user = context.user
            let now = self.now()
            let figures = try await ConsoleFigures.load(from: database, logs: logs, contents: profileContents, now: now, role: user.role)
            let isAdmin = user.role.includes(.admin)
            let steps: [View.Step] = [
                .init(text: "Add your team: admins author policy, helpdesk staff look after devices, viewers read.",
                      href: Site.Accounts.users.link(), linkText: "Users", done: figures.users > 1),
                .init(text: "Add the apps your devices run, with their bundle IDs.", href: Site.Apps.list.link(), linkText: "Apps", done: figures.apps > 0),
                .init(text: "Create device groups such as “Lobby kiosks” or “Clinic iPads”.", href: Site.Groups.list.link(), linkText: "Groups", done: figures.groups > 0),
                .init(text: "Add devices, or enroll simulated ones, and put them in groups.", href: Site.Devices.list.link(), linkText: "Devices", done: figures.devices > 0),
                .init(text: "Create a profile, add payloads such as Single App Mode or DLP, and assign it to a group.",
                      href: Site.Profiles.list.link(), linkText: "Profiles", done: figures.profiles > 0),
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
                    .init(label: "Profiles", value: figures.profiles, href: Site.Profiles.list.link()),
                    .init(label: "Devices", value: figures.devices, href: Site.Devices.list.link()),
                    .init(label: "Device groups", value: figures.groups, href: Site.Groups.list.link()),
                    .init(label: "Apps in the catalog", value: figures.apps, href: Site.Apps.list.link()),
                    .init(label: "Console users", value: figures.users, href: isAdmin ? Site.Accounts.users.link() : nil),
                ],
                capWarnings: user.role.includes(.helpdesk) ? figures.capWarnings.map { warning in
                    .init(text: warning.message(appName: figures.appNames[warning.app] ?? warning.app), href: Site.Logs.index(app: warning.app),
                          linkText: "Its logs", done: false)
                } : [],
                events: events,
                hasEvents: !events.isEmpty,
                isAdmin: isAdmin,
                steps: steps,
                showSteps: stories.isEmpty && (isAdmin ? steps.contains { !$0.done } : figures.devices == 0 || figures.profiles == 0))
            return try renderer.page("dashboard", title: "Dashboard", model: view, request: request, context: context)
        }
    }

    /// One tile per story, its group and simulator buttons linked where they still exist.
    static func stories(_ links: DemoStoryLinks) -> [View.Story] {
        DemoStory.all.map { story in
            let group = links.groups[story.group]
            return View.Story(
                id: story.id, title: story.title, summary: story.summary,
                payloads: story.payloads.map(\.displayName).joined(separator: " · "),
                groupName: story.group, groupHref: group.map { Site.Devices.list(in: $0.id) }, deviceCount: Counted.phrase(group?.devices ?? 0, "device"),
                simulators: story.simulatorDevices.compactMap { name in links.devices[name].map { View.Link(label: name, href: Site.Simulator.show.link($0)) } },
                tourHref: Site.Tour.story(story.id))
        }
    }
}
