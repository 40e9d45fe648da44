import Foundation

/// Text for a `LIKE … ESCAPE '\'` pattern that matches itself literally: `%` and `_` typed by a
/// person are characters to find, not wildcards.
public enum LikePattern {
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
