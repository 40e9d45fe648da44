import Domain
import HTTPTypes

extension Site {
    /// The guided tour of the demo stories.
    enum Tour {
        static let page = SiteRoute<NoValues>(.get, "/tour", role: .viewer)
        /// Where a step's done/not-done form posts.
        static let markStep = SiteRoute<String>(.post, "/tour/steps/{step}", role: .viewer)
        /// Where a story's "Start again" posts.
        static let restartStory = SiteRoute<String>(.post, "/tour/stories/{story}/restart", role: .viewer)

        /// A story's part of the tour.
        static func story(_ story: String) -> String { page.link() + "#story-" + story }
    }
}
