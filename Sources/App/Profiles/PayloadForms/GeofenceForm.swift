import Domain
import Foundation

/// Geofence: named circular areas, a sketch of them, and "test a point".
struct GeofenceForm: PayloadForm {
    struct AreaRow {
        let index: Int
        let number: Int
        let name: String
        let latitude: String
        let longitude: String
        let radius: String
        let errors: [String: String]
        /// The area a button just added, or the one now where a removed one was, takes the
        /// focus (its name), so a keyboard user carries on there rather than at the top.
        var focus = false
    }

    struct TestResult {
        let inside: Bool
        let message: String
    }

    var areas: [AreaRow] = []
    var errors: [String: String] = [:] {
        didSet {
            areas = areas.map { Self.row($0, errors: errors) }
            listError = errors["areas"]
        }
    }
    /// Stored, not computed: Mustache reads stored properties only.
    var listError: String?
    var testLatitude = ""
    var testLongitude = ""
    var testResult: TestResult?
    var testError: String?
    /// Our own SVG, built from numbers; names inside it are escaped.
    var sketch = ""
    /// After the last area is removed the focus goes to "Add an area"; after a test, it stays
    /// on Test beside the result.
    var focusAdd = false
    var focusTest = false

    init(_ payload: Payload?) {
        guard let fence = payload?.settings(as: Geofence.self) else {
            areas = [Self.row(index: 0, name: "", latitude: "", longitude: "", radius: "200", errors: [:])]
            return
        }
        areas = fence.areas.enumerated().map { index, area in
            Self.row(index: index, name: area.name, latitude: Self.format(area.latitude), longitude: Self.format(area.longitude),
                     radius: Self.format(area.radiusMeters), errors: [:])
        }
        sketch = GeofenceSketch.svg(areas: fence.areas, point: nil)
    }

    init(_ form: FormFields) {
        var raw = Self.rawAreas(form)
        let intent = form["intent"]
        if intent == "add" {
            raw.append(("", "", "", "200"))
        } else if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)), raw.indices.contains(index) {
            raw.remove(at: index)
        }
        areas = raw.enumerated().map { Self.row(index: $0.offset, name: $0.element.0, latitude: $0.element.1,
                                                longitude: $0.element.2, radius: $0.element.3, errors: [:]) }
        if intent == "add", !areas.isEmpty {
            areas[areas.count - 1].focus = true
        } else if intent.hasPrefix("remove.") {
            if let index = Int(intent.dropFirst(7)), !areas.isEmpty { areas[min(max(index, 0), areas.count - 1)].focus = true } else { focusAdd = true }
        }
        focusTest = intent == "test"
        testLatitude = form["testLatitude"]
        testLongitude = form["testLongitude"]
        let parsed = Self.parse(raw)
        let point = Self.testPoint(form)
        if intent == "test" {
            if let point, parsed.errors.isEmpty, !parsed.areas.isEmpty, Geofence(areas: parsed.areas).validate().isEmpty {
                let result = Geofence(areas: parsed.areas).test(point)
                let distance = Self.describeDistance(abs(result.distanceToNearestEdgeMeters))
                testResult = TestResult(
                    inside: result.isInside,
                    message: result.isInside
                        ? "Inside \(result.nearestAreaName), \(distance) from its edge: SDK apps work here."
                        : "Outside every area; \(distance) from the edge of \(result.nearestAreaName). SDK apps show a blocker here.")
            } else if point == nil {
                testError = "Enter a latitude (−90 to 90) and a longitude (−180 to 180) to test."
            } else {
                testError = "Fix the areas first, then test a point."
            }
        }
        if parsed.errors.isEmpty && Geofence(areas: parsed.areas).validate().isEmpty {
            sketch = GeofenceSketch.svg(areas: parsed.areas, point: point)
        }
    }

    static func submitted(_ form: FormFields) -> Submission {
        let intent = form["intent"]
        let parsed = parse(rawAreas(form))
        if !intent.isEmpty && intent != "save" {
            return Submission(payload: nil, errors: ValidationErrors(), isRevision: true)
        }
        // One pass over every field: the domain's rules run even when a number did not parse
        // (that field keeps its own message), so an unreadable longitude does not hide an
        // unnamed area or a radius out of range.
        var errors = parsed.errors
        let fence = Geofence(areas: parsed.areas)
        errors.merge(fence.validate())
        return Submission(payload: parsed.errors.isEmpty ? Payload(fence) : nil, errors: errors)
    }

    // MARK: parsing

    private typealias RawArea = (String, String, String, String)

    private static func rawAreas(_ form: FormFields) -> [RawArea] {
        let names = form.all("name"), latitudes = form.all("latitude"), longitudes = form.all("longitude"), radii = form.all("radius")
        return names.indices.map { index in
            (names[index], latitudes.indices.contains(index) ? latitudes[index] : "",
             longitudes.indices.contains(index) ? longitudes[index] : "", radii.indices.contains(index) ? radii[index] : "")
        }
    }

    /// Numbers as typed; a field that is not a number is reported here, the ranges by the domain.
    private static func parse(_ raw: [RawArea]) -> (areas: [Geofence.Area], errors: ValidationErrors) {
        var errors = ValidationErrors()
        var areas: [Geofence.Area] = []
        for (index, area) in raw.enumerated() {
            let latitude = DecimalNumber.parse(area.1), longitude = DecimalNumber.parse(area.2)
            let radius = DecimalNumber.parse(area.3)
            if latitude == nil { errors["areas.\(index).latitude"] = "Enter the latitude in degrees, such as 51.5072." }
            if longitude == nil { errors["areas.\(index).longitude"] = "Enter the longitude in degrees, such as -0.1276." }
            if radius == nil { errors["areas.\(index).radius"] = "Enter the radius in metres, from 50 to 50,000." }
            areas.append(Geofence.Area(name: area.0.trimmingWhitespace(), latitude: latitude ?? 0, longitude: longitude ?? 0,
                                       radiusMeters: radius ?? 0))
        }
        return (areas, errors)
    }

    private static func testPoint(_ form: FormFields) -> GeoPoint? {
        guard let latitude = DecimalNumber.parse(form["testLatitude"]),
              let longitude = DecimalNumber.parse(form["testLongitude"]),
              (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    private static func row(index: Int, name: String, latitude: String, longitude: String, radius: String, errors: [String: String]) -> AreaRow {
        AreaRow(index: index, number: index + 1, name: name, latitude: latitude, longitude: longitude, radius: radius, errors: errors)
    }

    private static func row(_ row: AreaRow, errors: [String: String]) -> AreaRow {
        let prefix = "areas.\(row.index)."
        var own: [String: String] = [:]
        for (key, message) in errors where key.hasPrefix(prefix) { own[String(key.dropFirst(prefix.count))] = message }
        return AreaRow(index: row.index, number: row.number, name: row.name, latitude: row.latitude, longitude: row.longitude,
                       radius: row.radius, errors: own, focus: row.focus)
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    static func describeDistance(_ meters: Double) -> String {
        meters >= 1000 ? String(format: "%.1f km", meters / 1000) : "\(Int(meters.rounded())) m"
    }
}

/// How pages show Geofence payloads; its form is `GeofenceForm`.
extension Geofence: PayloadPresentation {
    static var formType: any PayloadForm.Type { GeofenceForm.self }

    var summaryLines: [String] {
        areas.map { "\($0.name): \(GeofenceForm.format($0.latitude)), \(GeofenceForm.format($0.longitude)), radius \(GeofenceForm.describeDistance($0.radiusMeters))" }
    }

    var labelledFields: [PayloadFields.Field] {
        areas.map { area in
            PayloadFields.Field(label: "Area “\(area.name)”",
                                value: "\(GeofenceForm.format(area.latitude)), \(GeofenceForm.format(area.longitude)), radius \(GeofenceForm.describeDistance(area.radiusMeters))")
        }
    }
}
