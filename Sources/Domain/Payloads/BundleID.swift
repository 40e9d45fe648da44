/// Bundle identifiers as iOS knows them: reverse-DNS segments of letters, digits and hyphens.
public enum BundleID {
    public static let maximumLength = 155

    /// A payload's list of apps under the form's field names (`apps`, `apps.<index>`): at least
    /// one, each a bundle ID, none twice.
    public static func listProblems(_ apps: [String]) -> ValidationErrors {
        var errors = ValidationErrors()
        if apps.isEmpty { errors["apps"] = "Add at least one app, or remove the payload." }
        var seen: Set<String> = []
        for (index, app) in apps.enumerated() {
            if let problem = problem(app) {
                errors["apps.\(index)"] = problem
            } else if !seen.insert(app).inserted {
                errors["apps.\(index)"] = "\(app) is already in the list."
            }
        }
        return errors
    }

    /// nil when `candidate` is a valid bundle ID, otherwise what is wrong with it.
    public static func problem(_ candidate: String) -> String? {
        // Every log line names its app: checked a byte at a time when all is well, which is
        // what the character-by-character reading below also concludes for such a text.
        if isPlainlyValid(candidate.utf8) { return nil }
        if candidate.isEmpty { return "Enter a bundle ID like com.example.app." }
        if candidate.count > maximumLength { return "A bundle ID has at most \(maximumLength) characters." }
        let segments = candidate.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "-") }
        guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed) }) else {
            return "Enter a bundle ID like com.example.app: dot-separated parts of letters, digits and hyphens."
        }
        return nil
    }

    /// ASCII only, at most `maximumLength` bytes, two or more non-empty dot-separated parts of
    /// letters, digits and hyphens.
    private static func isPlainlyValid(_ bytes: String.UTF8View) -> Bool {
        guard bytes.count <= maximumLength else { return false }
        var parts = 1
        var partLength = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."):
                if partLength == 0 { return false }
                parts += 1
                partLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                partLength += 1
            default:
                return false
            }
        }
        return parts >= 2 && partLength > 0
    }
}
