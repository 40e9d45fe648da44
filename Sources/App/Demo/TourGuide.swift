import Domain
import Foundation

/// The tour as it stands for one person while it runs: where each step's link goes, which
/// step a simulator page belongs to, and where "Next step" leads. Read by `TourStore.guide`,
/// which gives none when the tour is not running (stories off, never started, or every step
/// done).
struct TourGuide: Sendable {
    let links: DemoStoryLinks
    let done: Set<String>

    /// Every step in the tour's order, with its story and its number within the story.
    static let steps: [(story: DemoStory, step: DemoStory.Step, number: Int)] = DemoStory.all.flatMap { story in
        story.steps.enumerated().map { (story, $1, $0 + 1) }
    }

    /// Where a step's link goes: a simulator step names itself (`?step=`), so the simulator
    /// shows that step while it is followed; other pages show it from `tour=`.
    func href(_ step: DemoStory.Step) -> String? {
        guard let href = links.href(step.target) else { return nil }
        if case .simulator = step.target { return href + "?step=" + step.id }
        // Any other page shows the step at its top, with the way on, from the link's `tour=`.
        return href + (href.contains("?") ? "&" : "?") + TourBanner.parameter + "=" + step.id
    }

    /// The step after `id` in the tour's order, and where it opens (its place on the tour page
    /// when it has no link).
    /// Steps `role` cannot do are passed over.
    func next(after id: String, for role: Role) -> String {
        guard let index = Self.steps.firstIndex(where: { $0.step.id == id }),
              let next = Self.steps[(index + 1)...].first(where: { role.includes($0.step.target.role) })?.step else { return Site.Tour.page.link() }
        return href(next) ?? Site.Tour.page.link() + "#step-" + next.id
    }

    /// The step a simulator page belongs to: the one it was opened from when that step is this
    /// device's, else the first step not done yet that opens this device's simulator.
    func simulatorStep(device: String, openedFrom: String?) -> (story: DemoStory, step: DemoStory.Step, number: Int)? {
        let ours = Self.steps.filter { if case .simulator(let name) = $0.step.target { name == device } else { false } }
        return ours.first { $0.step.id == openedFrom } ?? ours.first { !done.contains($0.step.id) }
    }
}
