import Domain
import Foundation

/// While a tour is followed, the step a page belongs to, at the top of that page: what to do,
/// what the page will show, and the way on to the next step or back to the tour. A simulator
/// finds its step itself; any other page a step opens is told it by the step's link (`?tour=`).
struct TourBanner {
    let storyTitle: String
    let number: Int
    let stepCount: Int
    let instruction: String
    let expectation: String
    let rule: String?
    let stepID: String
    let markPath: String
    let tourPath: String

    /// The query parameter a step's link names itself by, on pages other than the simulator.
    static let parameter = "tour"

    init(story: DemoStory, step: DemoStory.Step, number: Int) {
        (storyTitle, self.number, stepCount) = (story.title, number, story.steps.count)
        (instruction, expectation, rule, stepID) = (step.instruction, step.expectation, step.rule, step.id)
        markPath = Site.Tour.markStep.link(step.id)
        tourPath = Site.Tour.page.link() + "#step-" + step.id
    }

    /// The banner a page opened from a step's link shows: none when the link names no step,
    /// or a step the reader's role cannot do (the tour does not ask for presses they may not make).
    init?(stepID: Substring?, role: Role?) {
        guard let stepID, let found = TourGuide.steps.first(where: { $0.step.id == stepID }),
              let role, role.includes(found.step.target.role) else { return nil }
        self.init(story: found.story, step: found.step, number: found.number)
    }
}
