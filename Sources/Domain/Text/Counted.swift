/// A count with its noun, as a person writes it: "1 device", "12 devices", "10,000 devices" —
/// never "device(s)", which makes every reader work out which was meant.
public enum Counted {
    /// `plural` defaults to the singular with an "s".
    public static func phrase(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(grouped(count)) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// Digits in threes, separated by commas, whatever the server's locale.
    public static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return count < 0 ? "-" + text : text
    }
}
