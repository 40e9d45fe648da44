/// Bundle identifiers as iOS knows them: reverse-DNS segments of letters, digits and hyphens.
public enum BundleID {
    public static let maximumLength = 155

    /// nil when `candidate` is a valid bundle ID, otherwise what is wrong with it.
    public static func problem(_ candidate: String) -> String? {
        if candidate.isEmpty { return "Enter a bundle ID like com.example.app." }
        if candidate.count > maximumLength { return "A bundle ID has at most \(maximumLength) characters." }
        let segments = candidate.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "-") }
        guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed) }) else {
            return "Enter a bundle ID like com.example.app: dot-separated parts of letters, digits and hyphens."
        }
        return nil
    }
}
