import Domain
import Foundation
import Hummingbird
import Storage

/// `/tour`: the demo's stories step by step — what to click, what the page will show and the
/// rule that decides it — each step a link, with the reader's progress kept per person.
struct TourController {
    let tour: TourStore
    let renderer: PageRenderer

    struct View {
        struct Story {
            let id: String
            let title: String
            let summary: String
            let steps: [Step]
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
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        let user = context.user
        let (links, showsStories, done) = try await tour.overview(for: user.id)
        let stories = DemoStory.all.map { story in
            View.Story(id: story.id, title: story.title, summary: story.summary, steps: story.steps.enumerated().map { index, step in
                let href = TourGuide(links: links, done: done).href(step)
                let allowed = user.role.includes(step.target.role)
                return View.Step(
                    id: step.id, number: index + 1, instruction: step.instruction, expectation: step.expectation, rule: step.rule,
                    href: allowed ? href : nil,
                    unavailable: href == nil ? "What this step opens is no longer in the console."
                        : allowed ? nil : "Needs a \(step.target.role.displayName.lowercased()) account or above.",
                    done: done.contains(step.id), togglePath: Site.Tour.markStep.link(step.id))
            })
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
            return .seeOther(TourGuide(links: links, done: steps).next(after: id))
        }
        return .seeOther(Site.Tour.page.link() + "#step-" + id)
    }
}
