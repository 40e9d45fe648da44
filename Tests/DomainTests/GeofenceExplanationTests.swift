import Domain
import Testing

/// Helpdesk's geofence question — "am I outside it?" — answered for a point: which area it
/// is in, or how far the nearest area's edge is; and the point a log line gives.
@Suite struct GeofenceExplanationTests {
    // The demo's field sales fence: the North depot's car park lies just outside its circle.
    let fence = Geofence(areas: [
        Geofence.Area(name: "Head office", latitude: 51.5072, longitude: -0.1276, radiusMeters: 400),
        Geofence.Area(name: "North depot", latitude: 53.4808, longitude: -2.2426, radiusMeters: 1_500),
    ])

    @Test func aPointOutsideSaysHowFarTheNearestEdgeAndCentreAre() throws {
        let carPark = GeoPoint(latitude: 53.4655, longitude: -2.2426)
        let explained = try #require(GeofenceExplanation(carPark, against: fence))
        #expect(!explained.isInside)
        #expect(explained.nearestArea.name == "North depot")
        // 0.0153° of latitude is about 1,701 m from the centre: about 200 m past the edge.
        #expect(abs(explained.metersFromCentre - 1_701) < 5)
        #expect(abs(explained.metersFromEdge - 201) < 5)
        #expect(explained.sentence == "Outside every area: North depot's edge is 201 m away (1.7 km from its centre; its radius is 1.5 km).")
        #expect(explained.short == "outside, 201 m beyond North depot's edge")
    }

    @Test func aPointInsideNamesItsAreaAndTheEdgeTheNearestOneIs() throws {
        let lobby = GeoPoint(latitude: 51.5072, longitude: -0.1276)
        let explained = try #require(GeofenceExplanation(lobby, against: fence))
        #expect(explained.isInside)
        #expect(explained.sentence == "Inside Head office, 400 m from its edge.")
        #expect(explained.short == "inside Head office")
        // On the boundary counts as inside, as the SDK decides it.
        let edge = GeoPoint(latitude: 51.5072 + 399.9 / 111_195, longitude: -0.1276)
        #expect(GeofenceExplanation(edge, against: fence)?.isInside == true)
        #expect(GeofenceExplanation(lobby, against: Geofence(areas: [])) == nil)
    }

    @Test(arguments: [
        ("Geofence: outside every allowed area at 53.4662, -2.2398 (North depot car park)", GeoPoint(latitude: 53.4662, longitude: -2.2398)),
        ("location -33.8688,151.2093 ok", GeoPoint(latitude: -33.8688, longitude: 151.2093)),
        ("(51.50, -0.12)", GeoPoint(latitude: 51.5, longitude: -0.12)),
    ] as [(String, GeoPoint)])
    func aLogLineGivesThePointItNames(message: String, point: GeoPoint) {
        #expect(GeoPoint.firstMentioned(in: message) == point)
    }

    @Test(arguments: [
        "Synced 3, 4 orders", "Lobby Check-In 2.4.0, 2.4.1 installed", "build 12.345,67.891x", "v1.23, 4.56.7",
        "at 95.0000, 10.0000", "at 45.00, 190.00", "no place here",
    ])
    func numbersThatAreNotAPlaceAreNotTakenForOne(message: String) {
        #expect(GeoPoint.firstMentioned(in: message) == nil)
    }
}
