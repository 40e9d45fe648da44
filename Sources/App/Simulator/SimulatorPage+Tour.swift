import Foundation

extension SimulatorPage {
    /// While a tour runs, the step this simulator belongs to: the way back to the tour and on
    /// to the next step.
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

        init(story: DemoStory, step: DemoStory.Step, number: Int) {
            (storyTitle, self.number, stepCount) = (story.title, number, story.steps.count)
            (instruction, expectation, rule, stepID) = (step.instruction, step.expectation, step.rule, step.id)
            markPath = Site.Tour.markStep.link(step.id)
            tourPath = Site.Tour.page.link() + "#step-" + step.id
        }
    }
}
