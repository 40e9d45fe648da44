import Domain
import Foundation
import Hummingbird
import Storage

/// `/tour`: the demo's stories step by step — what to click, what the page will show and the
/// rule that decides it — each step a link, with the reader's progress kept per person.
struct TourController {
    let tour: TourStore
    let renderer: PageRenderer
    let cookies: CookieJar

    struct View {
        struct Story {
            let id: String
            let title: String
            let summary: String
            let steps: [Step]
            /// The steps the reader's role cannot do, said in one sentence; nil when there are none.
            let notOffered: String?
            let restartPath: String
            /// What "Start again" does for this reader: their steps, and the story's devices when they may act on them.
            let restartHint: String
        }

        struct Step {
            let id: String
            let number: Int
            let instruction: String
            let expectation: String
            let rule: String?
            let href: String?
            /// Why there is no link: the demo's device is gone, or the reader's role cannot follow it.
            let unavailable: String?
            let done: Bool
            let togglePath: String
        }

        let stories: [Story]
        let doneCount: Int
        let stepCount: Int
        let showsStories: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Tour.page, use: page)
        routes.on(Site.Tour.markStep, use: mark)
        routes.on(Site.Tour.restartStory, use: restart)
    }

    /// "Start again": the story from its first step, on devices in a known state.
    @Sendable func restart(_ id: String, request: Request, context: SignedInContext) async throws -> Response {
        guard let story = DemoStory.all.first(where: { $0.id == id }) else { throw HTTPError(.notFound, message: "The tour has no story \(id.clipped(to: 40)).") }
        let resetDevices = context.user.role.includes(.helpdesk)
        try await tour.restart(story, resetDevices: resetDevices, by: context.user)
        let said = resetDevices ? "\(story.title) starts again: its steps are undone and its simulated devices are as the demo made them."
            : "\(story.title) starts again: its steps are undone."
        return .seeOther(Site.Tour.story(story.id), flash: .notice(said), cookies: cookies, request: request)
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        let user = context.user
        let (links, showsStories, done) = try await tour.overview(for: user.id)
        let stories = DemoStory.all.map { story -> View.Story in
            // Each role is offered the steps it can do; the others are counted, not asked for.
            let offered = story.steps.enumerated().filter { user.role.includes($0.element.target.role) }
            let left = story.steps.count - offered.count
            return View.Story(id: story.id, title: story.title, summary: story.summary, steps: offered.map { index, step in
                let href = TourGuide(links: links, done: done).href(step)
                return View.Step(
                    id: step.id, number: index + 1, instruction: step.instruction, expectation: step.expectation, rule: step.rule,
                    href: href, unavailable: href == nil ? "What this step opens is no longer in the console." : nil,
                    done: done.contains(step.id), togglePath: Site.Tour.markStep.link(step.id))
            }, notOffered: left == 0 ? nil
                : "\(Counted.phrase(left, "more step")) of this story \(left == 1 ? "acts" : "act") in the simulator or \(left == 1 ? "reads" : "read") logs: a helpdesk or admin account can follow \(left == 1 ? "it" : "them").",
               restartPath: Site.Tour.restartStory.link(story.id),
               restartHint: user.role.includes(.helpdesk) ? "Its steps undone and its simulated devices as the demo made them."
                : "Its steps undone.")
        }
        let stepCount = stories.reduce(0) { $0 + $1.steps.count }
        let view = View(stories: stories, doneCount: stories.reduce(0) { $0 + $1.steps.filter(\.done).count }, stepCount: stepCount,
                        showsStories: showsStories)
        return try renderer.page("tour", title: "Tour", model: view, request: request, context: context)
    }

    @Sendable func mark(_ id: String, request: Request, context: SignedInContext) async throws -> Response {
        guard DemoStory.step(id) != nil else { throw HTTPError(.notFound, message: "The tour has no step \(id.clipped(to: 40)).") }
        let done = context.form["done"] == "yes"
        try await tour.mark(id, done: done, by: context.user.id)
        // "Done — next step" beside a step (the simulator's tour banner) goes on to the next one.
        if done, context.form["then"] == "next" {
            let (links, _, steps) = try await tour.overview(for: context.user.id)
            return .seeOther(TourGuide(links: links, done: steps).next(after: id, for: context.user.role))
        }
        return .seeOther(Site.Tour.page.link() + "#step-" + id)
    }
}
