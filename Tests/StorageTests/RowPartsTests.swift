import Foundation
import Storage
import Testing

/// Rows of two tables read side by side in one statement, each decoded from its own part.
@Suite struct RowPartsTests {
    @Test(arguments: Backend.available) func eachPartDecodesItsOwnTablesRow(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let (gadget, owner) = try await database.write { connection in
            (try connection.insert(Gadget.sample("lent")), try connection.insert(Owner(name: "Ann")))
        }
        try await database.write { _ = try $0.insert(Loan(ownerID: owner.id, gadgetName: gadget.name)) }
        let sideBySide: SQL = """
            SELECT g.*, NULL AS __loan, l.*, NULL AS __owner, o.* FROM gadgets AS g
            LEFT JOIN loans AS l ON l.gadgetName = g.name LEFT JOIN owners AS o ON o.id = l.ownerID
            ORDER BY g.id
            """
        let row = try #require(try await database.read { try $0.row(sideBySide) })
        #expect(try row.part(nil).decode(Gadget.self) == gadget)
        #expect(try row.part("loan").decodeIfFound(Loan.self)?.ownerID == owner.id)
        #expect(try row.part("owner").decodeIfFound(Owner.self) == owner)
        #expect(row.part("nothing").columnNames.isEmpty)

        // An outer join that found nothing: no record, not one of NULLs.
        _ = try await database.write { try $0.insert(Gadget.sample("kept")) }
        let rows = try await database.read { try $0.rows(sideBySide) }
        #expect(try rows.last?.part("loan").decodeIfFound(Loan.self) == nil)
        #expect(try rows.last?.part(nil).decode(Gadget.self).name == "kept")
    }
}
