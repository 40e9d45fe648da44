import Domain
import Foundation
import Hummingbird
import Storage

extension PayloadFormsController {
    /// "Use the keys of this app's specfile": the form's keys become the specfile's, in its
    /// order, with its types, limits, descriptions and defaults; a value already typed for a
    /// key of the same name is kept, and keys the specfile does not know stay below it.
    func specfileRevision(id: RecordID<ProfileRecord>, base: Int, fields: FormFields, request: Request,
                          context: SignedInContext) async throws -> Response {
        var fields = fields
        var errors: [String: String] = [:]
        let app = fields["app"].trimmingWhitespace()
        if let stored = try await appConfigSpecs.spec(for: app) {
            let typed = ManagedAppConfigForm.rawKeys(fields)
            let typedValues = Dictionary(typed.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let fromSpec = stored.spec.keys.map { key -> ManagedAppConfigForm.RawKey in
                var raw = ManagedAppConfigForm.raw(key)
                if let value = typedValues[key.name], !value.trimmingWhitespace().isEmpty { raw.value = value }
                return raw
            }
            let specNames = Set(stored.spec.keys.map(\.name))
            ManagedAppConfigForm.setRawKeys(fromSpec + typed.filter { !$0.name.trimmingWhitespace().isEmpty && !specNames.contains($0.name) },
                                            in: &fields)
        } else {
            errors["app"] = app.isEmpty ? "Choose the app first." : "No specfile has been imported for \(app): import one on the app's page in Apps."
        }
        var form = ManagedAppConfigForm(fields)
        form.errors = errors
        return try await formAgain(form, id: id, kind: .managedAppConfig, base: base, request: request, context: context, status: .ok)
    }
}
