import Domain
import Testing

@Suite struct RoleTests {
    @Test func rolesIncludeTheRolesBelowThem() {
        #expect(Role.admin.includes(.helpdesk))
        #expect(Role.admin.includes(.viewer))
        #expect(Role.helpdesk.includes(.viewer))
        #expect(!Role.helpdesk.includes(.admin))
        #expect(!Role.viewer.includes(.helpdesk))
        #expect(Role.viewer.includes(.viewer))
    }

    @Test func rolesRoundTripThroughTheirStoredName() {
        for role in Role.allCases {
            #expect(Role(rawValue: role.rawValue) == role)
        }
        #expect(Role(rawValue: "root") == nil)
    }
}

@Suite struct EmailAddressTests {
    @Test func normalisesCaseAndSpaces() throws {
        #expect(try EmailAddress(validating: "  Ann@Example.COM ").value == "ann@example.com")
    }

    @Test(arguments: ["", "   ", "ann", "ann@", "@example.com", "ann@example", "ann@@example.com",
                      "ann smith@example.com", "ann@.com", "<ann>@example.com"])
    func rejectsMalformedAddresses(_ raw: String) {
        #expect(throws: EmailAddress.Problem.self) { try EmailAddress(validating: raw) }
    }

    @Test func emptyAndMalformedHaveDistinctMessages() {
        #expect(throws: EmailAddress.Problem.empty) { try EmailAddress(validating: " ") }
        #expect(throws: EmailAddress.Problem.malformed) { try EmailAddress(validating: "ann") }
    }
}
