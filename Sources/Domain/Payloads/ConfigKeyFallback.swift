import Foundation

/// The value an app uses for a key whose delivered value is missing or invalid, and why that one.
public struct ConfigFallback: Equatable, Sendable {
    public let value: ConfigValue
    /// Words for the simulator, such as "the minimum" or "the first allowed value".
    public let reason: String
}

extension ConfigKey {
    /// What a well-written app falls back to: never a value the key's own published limits
    /// refuse. The first allowed value that passes every check, since admins list
    /// them in order of preference; otherwise the type's neutral value (zero, empty text, an
    /// empty list, No) moved to the nearest end of the range. Nil when the limits leave no
    /// such value, say text of at least 3 characters with no allowed values; `validate()`
    /// then asks the admin for a value.
    public var fallback: ConfigFallback? {
        candidates.first { accepts($0.value) }
    }

    private var candidates: [ConfigFallback] {
        switch type {
        case .integer:
            return allowedCandidates { Int($0).map(ConfigValue.integer) } + [neutralWholeNumber].compactMap { $0 }
        case .real:
            return allowedCandidates { Double($0).map(ConfigValue.real) } + [neutralNumber]
        case .string:
            return allowedCandidates { ConfigValue.string($0) } + [ConfigFallback(value: .string(""), reason: "empty text")]
        case .stringArray:
            var lists = [ConfigFallback(value: .stringArray([]), reason: "an empty list")]
            if let minimum, let count = Int(exactly: minimum.rounded(.up)), count > 0, count <= allowedValues.count {
                lists.append(ConfigFallback(value: .stringArray(Array(allowedValues.prefix(count))), reason: "the first \(count) allowed values"))
            }
            return lists
        case .boolean:
            return [ConfigFallback(value: .boolean(false), reason: "No")]
        case .date:
            // Dates carry no range or allowed values, so the earliest date is as good as any.
            return [ConfigFallback(value: .date(Date(timeIntervalSince1970: 0)), reason: "1 January 1970")]
        }
    }

    /// The allowed values in their published order; past the first, the words say some were ruled out.
    private func allowedCandidates(_ read: (String) -> ConfigValue?) -> [ConfigFallback] {
        allowedValues.enumerated().compactMap { index, text in
            read(text).map { ConfigFallback(value: $0, reason: index == 0 ? "the first allowed value" : "the first allowed value within its limits") }
        }
    }

    private var neutralNumber: ConfigFallback {
        if let minimum, minimum > 0 { return ConfigFallback(value: .real(minimum), reason: "the minimum") }
        if let maximum, maximum < 0 { return ConfigFallback(value: .real(maximum), reason: "the maximum") }
        return ConfigFallback(value: .real(0), reason: "zero")
    }

    private var neutralWholeNumber: ConfigFallback? {
        var number = 0.0
        var reason = "zero"
        if let minimum, minimum > 0 {
            number = minimum.rounded(.up)
            reason = number == minimum ? "the minimum" : "the smallest whole number in its range"
        } else if let maximum, maximum < 0 {
            number = maximum.rounded(.down)
            reason = number == maximum ? "the maximum" : "the largest whole number in its range"
        }
        // A bound beyond Int's range leaves no whole number to offer.
        return Int(exactly: number).map { ConfigFallback(value: .integer($0), reason: reason) }
    }

    /// The same check the app applies to a delivered value.
    private func accepts(_ value: ConfigValue) -> Bool {
        var delivered = self
        delivered.value = value
        return ManagedAppConfiguration.valueProblem(delivered) == nil
    }
}
