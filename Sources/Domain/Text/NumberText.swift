/// A number as a person reads it: whole numbers without ".0" (12, not 12.0), others as Swift
/// prints them.
public enum NumberText {
    public static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
