import Domain
import Foundation
import Testing

/// Defaults inside each key's own limits, and delivery to managed apps only.
@Suite struct ConfigurationFallbackTests {
    @Test func aMissingOrInvalidKeyFallsBackInsideItsOwnRangeAndAllowedValues() {
        let configuration = ManagedAppConfiguration(appIdentifier: Fixture.kiosk.bundleID, keys: [
            ConfigKey(name: "autoLogoutMinutes", type: .integer, minimum: 1, maximum: 60),
            ConfigKey(name: "offset", type: .integer, minimum: -10, maximum: -5),
            ConfigKey(name: "zoom", type: .real, minimum: 0.5, maximum: 2),
            ConfigKey(name: "ward", type: .string, allowedValues: ["North", "South"]),
            ConfigKey(name: "interval", type: .integer, minimum: 10, allowedValues: ["5", "15", "30"], value: .integer(7)),
            ConfigKey(name: "retries", type: .integer, maximum: 5),
        ])
        let received = ReceivedConfiguration(configuration)
        #expect(received.entries.map(\.value) == ["1", "-5", "0.5", "North", "15", "0"])
        #expect(received.defaultedCount == configuration.keys.count)
        #expect(received.entries.map(\.note) == [
            "missing, so the app falls back to the minimum",
            "missing, so the app falls back to the maximum",
            "missing, so the app falls back to the minimum",
            "missing, so the app falls back to the first allowed value",
            "invalid, so the app falls back to the first allowed value within its limits",
            "missing, so the app falls back to zero",
        ])
    }

    static let keysWithLimits: [ConfigKey] = [
        ConfigKey(name: "a", type: .integer, minimum: 1.5, maximum: 3.5),
        ConfigKey(name: "b", type: .integer, minimum: -7, maximum: -2.5),
        ConfigKey(name: "c", type: .integer, minimum: 1, maximum: 60, allowedValues: ["90", "45"]),
        ConfigKey(name: "d", type: .real, minimum: -3, maximum: -1),
        ConfigKey(name: "e", type: .string, allowedValues: ["1x", "ok"], pattern: "[a-z]+"),
        ConfigKey(name: "f", type: .stringArray, minimum: 2, allowedValues: ["red", "green", "blue"]),
        ConfigKey(name: "g", type: .boolean),
        ConfigKey(name: "h", type: .string, maximum: 8),
    ]

    @Test(arguments: keysWithLimits)
    func everyFallbackPassesTheKeysOwnChecks(_ key: ConfigKey) throws {
        let fallback = try #require(key.fallback)
        var delivered = key
        delivered.value = fallback.value
        #expect(ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [delivered]).validate().isEmpty)
    }

    @Test func aKeyWhoseLimitsLeaveNoDefaultNeedsAValue() {
        func errors(_ key: ConfigKey) -> ValidationErrors {
            ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [key]).validate()
        }
        let code = ConfigKey(name: "code", type: .string, minimum: 3)
        #expect(code.fallback == nil)
        #expect(errors(code)["keys.0.value"] != nil)
        var given = code
        given.value = .string("abc")
        #expect(errors(given).isEmpty)
        #expect(errors(ConfigKey(name: "n", type: .integer, minimum: 10, maximum: 5, value: .integer(7)))["keys.0.maximum"] != nil)
    }
}

@Suite struct ManagedOnlyConfigurationTests {
    let forChat = ManagedAppConfiguration(appIdentifier: Fixture.personal.bundleID, keys: [
        ConfigKey(name: "theme", type: .string, value: .string("dark")),
    ])
    let forKiosk = ManagedAppConfiguration(appIdentifier: Fixture.kiosk.bundleID, keys: [
        ConfigKey(name: "welcome", type: .string, value: .string("Hello")),
    ])

    @Test func aUserInstalledAppNeverReceivesManagedAppConfiguration() {
        var run = Run(Fixture.device(policy: DevicePolicy(forChat, forKiosk)))
        #expect(run.device.deliveredConfiguration(for: Fixture.personal.bundleID) == nil)
        #expect(run.device.deliveredConfiguration(for: Fixture.kiosk.bundleID) == forKiosk)
        #expect(run.device.deliveredConfiguration(for: "com.example.absent") == nil)

        let open = run.perform(.launchApp(Fixture.personal.bundleID))
        #expect(open.result == .done)
        #expect(open.message.contains("receives no managed app configuration"))
        #expect(run.device.feedback[Fixture.personal.bundleID] == nil)
    }

    @Test func theFormCanRefuseConfigurationForAnAppTheCatalogListsAsUnmanaged() {
        let refused = forChat.validate(appIsManaged: false)
        #expect(refused["app"]?.contains("managed apps only") == true)
        #expect(forChat.validate(appIsManaged: true).isEmpty)
        // Not in the catalog: the console cannot tell, so it leaves the choice to the admin.
        #expect(forChat.validate(appIsManaged: nil).isEmpty)
        // A bad bundle ID keeps its own message.
        #expect(ManagedAppConfiguration(appIdentifier: "chat").validate(appIsManaged: false)["app"] == BundleID.problem("chat"))
    }

    /// Every refusal names its key, so it reads on its own (an API answer, a list of errors).
    @Test func everyRefusalOfAKeyNamesTheKey() {
        let config = ManagedAppConfiguration(appIdentifier: "com.example.notes", keys: [
            ConfigKey(name: "sessionMinutes", type: .integer, minimum: 5, maximum: 60, value: .integer(90)),
            ConfigKey(name: "theme", type: .string, allowedValues: ["light", "dark"], value: .string("neon")),
            ConfigKey(name: "bad name", type: .string, value: .string("x")),
            ConfigKey(name: "", type: .string, value: .string("x")),
        ])
        let errors = config.validate()
        #expect(errors["keys.0.value"] == "sessionMinutes: The value must be at most 60.")
        #expect(errors["keys.1.value"] == "theme: Choose one of: light, dark.")
        #expect(errors["keys.2.name"] == "Key 3: Name the key with letters, digits, _ . or -.")
        #expect(errors["keys.3.name"]?.hasPrefix("Key 4: ") == true)
        #expect(errors["app"] == nil)
        // Named once, however often the errors pass through.
        #expect(ManagedAppConfiguration.namingKeys(errors, names: config.keys.map(\.name)) == errors)
    }

    /// A pattern is checked by a matcher that cannot backtrack: `(a+)+$` against a long run of
    /// a's and a "!" is an answer, not seconds of work; what it cannot check is refused by name.
    @Test func patternsAreCheckedInBoundedWorkAndUncheckableOnesRefused() {
        func errors(_ key: ConfigKey) -> ValidationErrors {
            ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [key]).validate()
        }
        let nested = ConfigKey(name: "code", type: .string, pattern: "(a+)+$", value: .string(String(repeating: "a", count: 5_000) + "!"))
        #expect(errors(nested)["keys.0.value"]?.contains("must match the pattern") == true)
        var matching = nested
        matching.value = .string(String(repeating: "a", count: 5_000))
        #expect(errors(matching).isEmpty)
        let backReference = ConfigKey(name: "twice", type: .string, pattern: "(ab)\\1", value: .string("abab"))
        #expect(errors(backReference)["keys.0.pattern"]?.contains("back-reference") == true)
        #expect(errors(ConfigKey(name: "bad", type: .string, pattern: "(ab", value: .string("ab")))["keys.0.pattern"] != nil)
    }
}
