import Foundation

extension JSONValue {
    /// A property list value as JSON: numbers for integers and reals, dates as ISO 8601 text,
    /// data as base64 text (JSON has neither).
    public init(_ value: PropertyList) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .number(Double(number))
        case .real(let number): self = .number(number)
        case .boolean(let flag): self = .bool(flag)
        case .date(let date): self = .string(date.formatted(.iso8601))
        case .data(let bytes): self = .string(Data(bytes).base64EncodedString())
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .dictionary(let entries): self = .object(Dictionary(entries.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
