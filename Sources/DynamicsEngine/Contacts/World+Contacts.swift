// Reading the contacts.

extension World {
    // MARK: Contacts

    /// Touching contacts: shapes, normal and world points, in contact order.
    package func touchingContacts() -> [(ShapeID, ShapeID, Manifold)] {
        contacts.filter { $0.isAlive && $0.isTouching }.map { (shapeID($0.shapeA), shapeID($0.shapeB), $0.manifold) }
    }
}
