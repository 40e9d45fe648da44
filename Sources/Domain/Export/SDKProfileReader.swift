import Foundation

/// The SDK settings of a `.mobileconfig` (the vendor payload `SDKProfile` writes) read back
/// into payloads, one named entry at a time under the same key names: each SDK kind reads its
/// own entry (`SDKPayloadSettings.init(sdkEntry:)`). An entry that is not in its kind's shape
/// is left out with the reason (branding always is, since its logos are images stored in the
/// console that exported it). Certificate details are left for the app layer to read from
/// each certificate's bytes.
enum SDKProfileReader {
    typealias Unreadable = SDKEntry.Unreadable

    /// The payload of one entry, or why it was left out.
    static func payload(named key: String, _ value: PropertyList) -> Result<Payload, Unreadable> {
        guard let entry = SDKEntry(value) else { return .failure(Unreadable("\(key) is not a dictionary.")) }
        guard let type = PayloadRegistry.sdkTypes[key] else { return .failure(Unreadable("\(key) is not an SDK setting this console knows.")) }
        do {
            return .success(Payload(try type.init(sdkEntry: entry)))
        } catch {
            return .failure(error as? Unreadable ?? Unreadable("\(key) could not be read."))
        }
    }
}

extension ConfigValue {
    /// A property-list value as a configuration value; nil for what the form has no type for.
    init?(_ value: PropertyList) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let date): self = .date(date)
        case .array(let items):
            let texts = items.compactMap(\.text)
            guard texts.count == items.count else { return nil }
            self = .stringArray(texts)
        case .data, .dictionary: return nil
        }
    }
}
