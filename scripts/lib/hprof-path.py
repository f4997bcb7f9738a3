#!/usr/bin/env python3
"""hprof-path.py HEAP.hprof CLASS [N]: what keeps the instances of CLASS alive in a Java heap dump.

Prints, for the N-th instance of CLASS (0, the first, by default; a running job's class loader and an
ended one's are two instances) (a class name as Java writes it, e.g.
org.apache.flink.util.ChildFirstClassLoader), one shortest chain of references from a GC root to
it: each step the holding object's class and the field or array slot that refers on. A heap dump
of a TaskManager (jcmd PID GC.heap_dump FILE) names the GC root that pins an ended job's class
loader this way, where no heap analyser is at hand (scripts/tm-heap-after-cancel HEAP_DUMP=1).

Backward breadth-first search: each pass over the file finds the objects that refer to the
current frontier, until a GC root is among them. An object refers to its fields and array
elements, a class to its statics, super class, class loader and protection domain, and an
instance to its class. Standard library only; a 300 MB dump takes a few minutes a pass.
"""
import struct
import sys

BASIC_SIZES = {2: None, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
ROOTS = {0xFF: ("unknown root", 0), 0x01: ("JNI global", None), 0x02: ("JNI local", 8),
         0x03: ("Java frame", 8), 0x04: ("native stack", 4), 0x05: ("system class", 0),
         0x06: ("thread block", 4), 0x07: ("monitor used", 0), 0x08: ("thread object", 8)}


class Dump:
    def __init__(self, path):
        self.data = open(path, "rb").read()
        header_end = self.data.index(b"\0") + 1
        self.id_size = struct.unpack_from(">I", self.data, header_end)[0]
        self.id_format = ">Q" if self.id_size == 8 else ">I"
        self.start = header_end + 12
        self.strings, self.class_names = {}, {}
        self.classes = {}  # class id -> (super id, [(field name, type)])
        self.roots = {}
        self._first_pass()

    def read_id(self, offset):
        return struct.unpack_from(self.id_format, self.data, offset)[0]

    def records(self):
        offset = self.start
        while offset < len(self.data):
            tag, _, length = struct.unpack_from(">BII", self.data, offset)
            yield tag, offset + 9, length
            offset += 9 + length

    def _first_pass(self):
        for tag, body, length in self.records():
            if tag == 0x01:
                self.strings[self.read_id(body)] = self.data[body + self.id_size:body + length].decode("utf-8", "replace")
            elif tag == 0x02:
                class_id = self.read_id(body + 4)
                name_id = self.read_id(body + 8 + self.id_size)
                self.class_names[class_id] = self.strings.get(name_id, "?").replace("/", ".")
            elif tag in (0x0C, 0x1C):
                for kind, offset, _ in self.sub_records(body, length, classes_too=True):
                    pass

    def sub_records(self, body, length, classes_too=False):
        """(kind, offset, end) of each sub-record; kind is the tag."""
        i, end, n = body, body + length, self.id_size
        while i < end:
            kind = self.data[i]
            start = i
            i += 1
            if kind in ROOTS:
                self.roots.setdefault(self.read_id(i), ROOTS[kind][0])
                i += n + (n if kind == 0x01 else ROOTS[kind][1])
            elif kind == 0x20:
                class_id = self.read_id(i)
                super_id = self.read_id(i + n + 4)
                i += 7 * n + 8
                (constants,) = struct.unpack_from(">H", self.data, i)
                i += 2
                for _ in range(constants):
                    kind_ = self.data[i + 2]
                    i += 3 + (BASIC_SIZES[kind_] or n)
                (statics,) = struct.unpack_from(">H", self.data, i)
                i += 2
                for _ in range(statics):
                    kind_ = self.data[i + n]
                    i += n + 1 + (BASIC_SIZES[kind_] or n)
                (fields,) = struct.unpack_from(">H", self.data, i)
                i += 2
                layout = []
                for _ in range(fields):
                    layout.append((self.strings.get(self.read_id(i), "?"), self.data[i + n]))
                    i += n + 1
                if classes_too:
                    self.classes[class_id] = (super_id, layout)
            elif kind == 0x21:
                (size,) = struct.unpack_from(">I", self.data, i + 2 * n + 4)
                i += 2 * n + 8 + size
            elif kind == 0x22:
                (count,) = struct.unpack_from(">I", self.data, i + n + 4)
                i += 2 * n + 8 + count * n
            elif kind == 0x23:
                count, kind_ = struct.unpack_from(">IB", self.data, i + n + 4)
                i += n + 9 + count * BASIC_SIZES[kind_]
            else:
                raise ValueError("unknown heap dump sub-record 0x%02x at %d" % (kind, start))
            yield kind, start, i

    def reference_slots(self, class_id, cache={}):
        """[(byte offset in an instance's data, field name)] of its object fields, super classes last.

        A weak or phantom reference's referent (and a finalizer's) keeps nothing alive; a soft
        reference's does until the heap runs short, so it counts, named as such."""
        if class_id not in cache:
            chain, current = [], class_id
            while current in self.classes:
                chain.append(current)
                current = self.classes[current][0]
            soft = any(self.class_names.get(c) == "java.lang.ref.SoftReference" for c in chain)
            slots, offset = [], 0
            for current in chain:
                owner = self.class_names.get(current, "?")
                for name, kind in self.classes[current][1]:
                    if kind == 2:
                        if owner == "java.lang.ref.Reference" and name == "referent":
                            if soft:
                                slots.append((offset, "(soft reference) " + owner + "." + name))
                        else:
                            slots.append((offset, owner + "." + name))
                    offset += BASIC_SIZES[kind] or self.id_size
            cache[class_id] = slots
        return cache[class_id]

    def referrers(self, frontier, seen):
        """{object: (referred object, how)} for every unseen object that refers into frontier."""
        found, n = {}, self.id_size
        for tag, body, length in self.records():
            if tag not in (0x0C, 0x1C):
                continue
            for kind, start, end in self.sub_records(body, length):
                if kind == 0x21:
                    obj = self.read_id(start + 1)
                    if obj in seen:
                        continue
                    class_id = self.read_id(start + 1 + n + 4)
                    data = start + 1 + 2 * n + 8
                    what = self.class_names.get(class_id, "?")
                    for offset, name in self.reference_slots(class_id):
                        ref = self.read_id(data + offset)
                        if ref in frontier:
                            found[obj] = (ref, name, what)
                            break
                    else:
                        if class_id in frontier:
                            found[obj] = (class_id, "(its class)", what)
                elif kind == 0x22:
                    obj = self.read_id(start + 1)
                    if obj in seen:
                        continue
                    (count,) = struct.unpack_from(">I", self.data, start + 1 + n + 4)
                    what = self.class_names.get(self.read_id(start + 1 + n + 8), "?")
                    data = start + 1 + 2 * n + 8
                    for k in range(count):
                        if self.read_id(data + k * n) in frontier:
                            found[obj] = (self.read_id(data + k * n), "[%d]" % k, what)
                            break
                elif kind == 0x20:
                    obj = self.read_id(start + 1)
                    if obj in seen:
                        continue
                    super_id, loader, signers, domain = (self.read_id(start + 1 + n + 4 + k * n) for k in range(4))
                    what = "class " + self.class_names.get(obj, "?")
                    for ref, how in ((loader, "(its class loader)"), (domain, "(its protection domain)"),
                                     (super_id, "(its super class)")):
                        if ref in frontier:
                            found[obj] = (ref, how, what)
                            break
                    else:
                        for ref, how in self.static_references(start):
                            if ref in frontier:
                                found[obj] = (ref, how, what)
                                break
        return found

    def static_references(self, start):
        n = self.id_size
        i = start + 1 + 7 * n + 8
        (constants,) = struct.unpack_from(">H", self.data, i)
        i += 2
        for _ in range(constants):
            i += 3 + (BASIC_SIZES[self.data[i + 2]] or n)
        (statics,) = struct.unpack_from(">H", self.data, i)
        i += 2
        for _ in range(statics):
            name, kind = self.strings.get(self.read_id(i), "?"), self.data[i + n]
            if kind == 2:
                yield self.read_id(i + n + 1), "static " + name
            i += n + 1 + (BASIC_SIZES[kind] or n)


def main():
    path, class_name = sys.argv[1:3]
    index = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    dump = Dump(path)
    wanted = {cid for cid, name in dump.class_names.items() if name == class_name}
    instances = []
    for tag, body, length in dump.records():
        if tag in (0x0C, 0x1C) and len(instances) <= index:
            for kind, start, _ in dump.sub_records(body, length):
                if kind == 0x21 and dump.read_id(start + 1 + dump.id_size + 4) in wanted:
                    instances.append(dump.read_id(start + 1))
    if len(instances) <= index:
        print("no instance %d of %s (%d found)" % (index, class_name, len(instances)))
        return 1
    target = instances[index]
    parent, frontier, seen = {}, {target}, {target}
    kinds = {}
    for depth in range(1, 40):
        rooted = [obj for obj in frontier if obj in dump.roots]
        if rooted:
            obj = rooted[0]
            print("GC root (%s):" % dump.roots[obj])
            while obj != target:
                ref, how, what = parent[obj]
                print("  %s %s ->" % (what, how))
                obj = ref
            print("  " + class_name)
            return 0
        found = dump.referrers(frontier, seen)
        if not found:
            print("nothing refers to the frontier at depth %d: unreachable" % depth)
            return 1
        parent.update(found)
        seen.update(found)
        frontier = set(found)
        print("depth %d: %d referrers" % (depth, len(found)), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
