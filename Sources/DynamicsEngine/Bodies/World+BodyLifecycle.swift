// Where a body is born and dies: its slot, its place in the awake list or a sleeping island, and
// on destruction its joints, contacts and shapes.

extension World {
    // MARK: Bodies

    package func createBody(_ d: BodyDef) -> BodyID {
        moves.isCurrent = false   // it may take the slot of a body the last step moved
        var b = Body()
        let pos = d.position.isFinite ? d.position : .zero
        let angle = d.angle.isFinite ? d.angle : 0
        b.transform = Transform(p: pos, q: Rot(angle: angle))
        b.center = pos; b.center0 = pos; b.rotation0 = b.transform.q
        b.type = d.type
        b.linearVelocity = d.type == .static || !d.linearVelocity.isFinite ? .zero : d.linearVelocity
        b.angularVelocity = d.type == .static || !d.angularVelocity.isFinite ? 0 : d.angularVelocity
        b.linearDamping = max(0, d.linearDamping.isFinite ? d.linearDamping : 0)
        b.angularDamping = max(0, d.angularDamping.isFinite ? d.angularDamping : 0)
        b.gravityScale = d.gravityScale.isFinite ? d.gravityScale : 1
        b.fixedRotation = d.fixedRotation
        b.enableSleep = d.enableSleep
        b.userData = d.userData
        let index = bodies.insert(b)
        if d.type != .static {
            if d.isAwake || d.type == .kinematic {
                addToAwake(index)
            } else {
                let island = sets.newSleepIsland([index])
                bodies[Int(index)].sleepIsland = island
            }
        }
        return bodyID(index)
    }

    package func isValid(_ id: BodyID) -> Bool { bodies.isValid(id.index, generation: id.generation) }

    package func destroyBody(_ id: BodyID) {
        guard isValid(id) else { return }
        moves.isCurrent = false
        let bi = Int(id.index)
        wake(bodyIndex: id.index)
        // joints
        var jk = bodies[bi].headJointKey
        while jk >= 0 {
            let j = jk >> 1
            let next = joints[Int(j)].nextKey.get(Int(jk & 1))
            destroyJointInternal(j)
            jk = next
        }
        // contacts (and their shapes' pairs)
        var ck = bodies[bi].headContactKey
        while ck >= 0 {
            let c = ck >> 1
            let next = contacts[Int(c)].nextKey.get(Int(ck & 1))
            destroyContact(c, reportEnd: true)
            ck = next
        }
        var s = bodies[bi].headShape
        while s >= 0 {
            let next = shapes[Int(s)].nextShape
            freeShape(s)
            s = next
        }
        removeFromAwake(id.index)
        if bodies[bi].sleepIsland >= 0 { removeFromSleepIsland(id.index) }
        bodies[bi].headShape = -1
        // a static body's shapes were noted one by one (`freeShape`); a body holds no other proxies
        if bodies[bi].type != .static { broadPhase.noteMovableShapesChanged() }
        bodies.remove(id.index)
    }


    func bodyID(_ i: Int32) -> BodyID { BodyID(index: i, generation: bodies.generation(i)) }
}
