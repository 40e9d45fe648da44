/// The settings of one payload kind, and everything the kind means, declared beside it: its
/// name and summary (`kind`), its validation, how the payloads of several profiles combine on
/// a device, and how a device's stored policy holds it. Where it travels is said by one of the
/// two refinements: `ApplePayloadSettings` (Apple's keys in the `.mobileconfig`) or
/// `SDKPayloadSettings` (an entry of the SDK profile, read back the same way). A kind with
/// neither (`RequiredApps`) is not exported: it reaches real devices as MDM commands.
///
/// A new kind is its settings type conforming to one of them, its line in `PayloadRegistry`,
/// and its App files (`PayloadPresentation`, form template, help page): nothing else lists kinds.
public protocol PayloadSettings: Codable, Equatable, Sendable {
    /// The kind's name, summary and combination rule.
    static var kind: PayloadKind { get }

    /// Every problem with the settings, by form field.
    func validate() -> ValidationErrors

    /// What a device gets from this kind's payloads of every profile reaching it, nearest
    /// group first (within a group, oldest profile first); never called with none.
    static func combine(_ found: [Sourced<Self>]) -> Combined<Self>

    /// The key a device's stored policy (`DevicePolicy`, kept as JSON) holds this kind under;
    /// by default the kind's name in camel case (`compromised-protection`: `compromisedProtection`).
    static var policyKey: String { get }
    /// Writes the values a device holds of this kind (none, one, or one per app) under
    /// `policyKey`; by default the one value, left out when there is none.
    static func encodeHeld(_ held: [Self], to container: inout KeyedEncodingContainer<PolicyKey>) throws
    /// Reads back what `encodeHeld` wrote (nothing, in states stored before the kind existed).
    static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [Self]
}

/// A key of a device's stored policy: the kinds' `policyKey`s.
public struct PolicyKey: CodingKey {
    public let stringValue: String
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}

extension PayloadSettings {
    /// The nearest group's payload, the rule most kinds state (`PayloadCombination.nearestGroup`);
    /// a kind with another rule implements its own.
    public static func combine(_ found: [Sourced<Self>]) -> Combined<Self> { .nearestGroup(found) }

    public static var policyKey: String {
        let words = kind.rawValue.split(separator: "-")
        return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    public static func encodeHeld(_ held: [Self], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encodeIfPresent(held.first, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [Self] {
        try container.decodeIfPresent(Self.self, forKey: PolicyKey(policyKey)).map { [$0] } ?? []
    }

    /// Encodes the settings as a value of their own type (which an `any PayloadSettings` is not).
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(self, forKey: key)
    }

    /// Equality across kinds: payloads of different kinds are never equal.
    func isEqual(to other: any PayloadSettings) -> Bool {
        (other as? Self) == self
    }
}

/// An Apple payload: it travels in the `.mobileconfig` under Apple's own payload type and keys.
public protocol ApplePayloadSettings: PayloadSettings {
    /// Apple's `PayloadType` (`com.apple.app.lock`).
    static var applePayloadType: String { get }
    /// The end of the payload's `PayloadIdentifier` in an exported profile.
    static var identifierSuffix: String { get }
    /// The payload's keys under Apple's names, without `PayloadType`.
    var appleKeys: [(String, PropertyList)] { get }
}

/// An SDK payload: an entry of the SDK profile apps download, under the key the SDK reads,
/// and read back from a `.mobileconfig` by the same key.
public protocol SDKPayloadSettings: PayloadSettings {
    /// The entry's key in the SDK profile (`DataLossPrevention`).
    static var sdkKey: String { get }
    /// Whether the entry goes into the SDK settings of an exported `.mobileconfig` (managed
    /// app configuration reaches devices as an MDM command instead).
    static var travelsInMobileConfig: Bool { get }
    /// The entry's value in the SDK profile.
    var sdkEntry: PropertyList { get }
    /// The settings read back from an entry; throws `SDKEntry.Unreadable` saying why not.
    init(sdkEntry: SDKEntry) throws
}

extension SDKPayloadSettings {
    public static var travelsInMobileConfig: Bool { true }
}
