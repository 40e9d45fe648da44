import Domain
import HTTPTypes

extension Site {
    /// The help pages: the index with its search, a page by topic, a payload kind's page.
    enum Help {
        static let index = SiteRoute<NoValues>(.get, "/help", role: .viewer)
        static let topic = SiteRoute<String>(.get, "/help/{topic}", role: .viewer)
        static let payload = SiteRoute<String>(.get, "/help/payloads/{kind}", role: .viewer)

        /// The page of a help library topic: "roles", or "payloads/dlp" for a payload kind's.
        static func page(_ topic: String) -> String {
            let payloadPrefix = "payloads/"
            return topic.hasPrefix(payloadPrefix) ? payload.link(String(topic.dropFirst(payloadPrefix.count))) : self.topic.link(topic)
        }
    }
}
