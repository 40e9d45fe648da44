/// What an app is to DLP: the organisation's managed browser, where "open links in the managed
/// browser" sends web links, or its managed mail app, where mailto links go.
public enum AppRole: String, CaseIterable, Codable, Sendable {
    case browser
    case mail

    public var displayName: String {
        switch self {
        case .browser: "The managed browser"
        case .mail: "The managed mail app"
        }
    }
}
