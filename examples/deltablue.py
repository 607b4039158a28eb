"""DeltaBlue: an incremental dataflow constraint solver (pyperformance's bm_deltablue), with
annotations. Constraints are objects of Constraint's subclasses, found through lists of the base
class; the planner calls their overridden methods.

Based on the Python version in pyperformance (from a JavaScript version by Google, of the
Smalltalk original by John Maloney and Mario Wolczko).
"""
from typing import Optional


class Strength:
    def __init__(self, strength: int, name: str):
        self.strength = strength
        self.name = name

    @staticmethod
    def stronger(s1: "Strength", s2: "Strength") -> bool:
        return s1.strength < s2.strength

    @staticmethod
    def weaker(s1: "Strength", s2: "Strength") -> bool:
        return s1.strength > s2.strength

    @staticmethod
    def weakest_of(s1: "Strength", s2: "Strength") -> "Strength":
        if Strength.weaker(s1, s2):
            return s1
        return s2

    def next_weaker(self) -> "Strength":
        strengths = {0: Strength.WEAKEST, 1: Strength.WEAK_DEFAULT, 2: Strength.NORMAL,
                     3: Strength.STRONG_DEFAULT, 4: Strength.PREFERRED, 5: Strength.REQUIRED}
        return strengths[self.strength]


Strength.REQUIRED = Strength(0, "required")
Strength.STRONG_PREFERRED = Strength(1, "strongPreferred")
Strength.PREFERRED = Strength(2, "preferred")
Strength.STRONG_DEFAULT = Strength(3, "strongDefault")
Strength.NORMAL = Strength(4, "normal")
Strength.WEAK_DEFAULT = Strength(5, "weakDefault")
Strength.WEAKEST = Strength(6, "weakest")


class Direction:
    NONE = 0
    FORWARD = 1
    BACKWARD = -1


class Variable:
    def __init__(self, name: str, initial_value: float = 0.0):
        self.name = name
        self.value = initial_value
        self.constraints: list["Constraint"] = []
        self.determined_by: Optional["Constraint"] = None
        self.mark = 0
        self.walk_strength: Strength = Strength.WEAKEST
        self.stay = True

    def __repr__(self) -> str:
        return "<Variable: %s - %s>" % (self.name, self.value)

    def add_constraint(self, constraint: "Constraint"):
        self.constraints.append(constraint)

    def remove_constraint(self, constraint: "Constraint"):
        self.constraints.remove(constraint)
        if self.determined_by == constraint:
            self.determined_by = None


class Constraint:
    def __init__(self, strength: Strength):
        self.strength = strength

    def add_to_graph(self) -> None:
        raise NotImplementedError

    def remove_from_graph(self) -> None:
        raise NotImplementedError

    def choose_method(self, mark: int) -> None:
        raise NotImplementedError

    def is_satisfied(self) -> bool:
        raise NotImplementedError

    def mark_inputs(self, mark: int) -> None:
        raise NotImplementedError

    def mark_unsatisfied(self) -> None:
        raise NotImplementedError

    def inputs_known(self, mark: int) -> bool:
        raise NotImplementedError

    def output(self) -> Variable:
        raise NotImplementedError

    def recalculate(self) -> None:
        raise NotImplementedError

    def execute(self) -> None:
        raise NotImplementedError

    def add_constraint(self):
        self.add_to_graph()
        get_planner().incremental_add(self)

    def satisfy(self, mark: int) -> Optional["Constraint"]:
        self.choose_method(mark)
        if not self.is_satisfied():
            if self.strength == Strength.REQUIRED:
                print("Could not satisfy a required constraint!")
            return None
        self.mark_inputs(mark)
        out = self.output()
        overridden = out.determined_by
        if overridden is not None:
            overridden.mark_unsatisfied()
        out.determined_by = self
        if not get_planner().add_propagate(self, mark):
            print("Cycle encountered")
        out.mark = mark
        return overridden

    def destroy_constraint(self):
        if self.is_satisfied():
            get_planner().incremental_remove(self)
        else:
            self.remove_from_graph()

    def is_input(self) -> bool:
        return False


class UrnaryConstraint(Constraint):
    def __init__(self, v: Variable, strength: Strength):
        super().__init__(strength)
        self.my_output = v
        self.satisfied = False
        self.add_constraint()

    def add_to_graph(self) -> None:
        self.my_output.add_constraint(self)
        self.satisfied = False

    def choose_method(self, mark: int) -> None:
        if self.my_output.mark != mark and Strength.stronger(self.strength, self.my_output.walk_strength):
            self.satisfied = True
        else:
            self.satisfied = False

    def is_satisfied(self) -> bool:
        return self.satisfied

    def mark_inputs(self, mark: int) -> None:
        pass

    def output(self) -> Variable:
        return self.my_output

    def recalculate(self) -> None:
        self.my_output.walk_strength = self.strength
        self.my_output.stay = not self.is_input()
        if self.my_output.stay:
            self.execute()

    def mark_unsatisfied(self) -> None:
        self.satisfied = False

    def inputs_known(self, mark: int) -> bool:
        return True

    def remove_from_graph(self) -> None:
        self.my_output.remove_constraint(self)
        self.satisfied = False


class StayConstraint(UrnaryConstraint):
    def execute(self) -> None:
        pass


class EditConstraint(UrnaryConstraint):
    def is_input(self) -> bool:
        return True

    def execute(self) -> None:
        pass


class BinaryConstraint(Constraint):
    def __init__(self, v1: Variable, v2: Variable, strength: Strength):
        super().__init__(strength)
        self.v1 = v1
        self.v2 = v2
        self.direction = Direction.NONE
        self.add_constraint()

    def choose_method(self, mark: int) -> None:
        if self.v1.mark == mark:
            if self.v2.mark != mark and Strength.stronger(self.strength, self.v2.walk_strength):
                self.direction = Direction.FORWARD
            else:
                self.direction = Direction.BACKWARD
        if self.v2.mark == mark:
            if self.v1.mark != mark and Strength.stronger(self.strength, self.v1.walk_strength):
                self.direction = Direction.BACKWARD
            else:
                self.direction = Direction.NONE
        if Strength.weaker(self.v1.walk_strength, self.v2.walk_strength):
            if Strength.stronger(self.strength, self.v1.walk_strength):
                self.direction = Direction.BACKWARD
            else:
                self.direction = Direction.NONE
        else:
            if Strength.stronger(self.strength, self.v2.walk_strength):
                self.direction = Direction.FORWARD
            else:
                self.direction = Direction.BACKWARD

    def add_to_graph(self) -> None:
        self.v1.add_constraint(self)
        self.v2.add_constraint(self)
        self.direction = Direction.NONE

    def is_satisfied(self) -> bool:
        return self.direction != Direction.NONE

    def mark_inputs(self, mark: int) -> None:
        self.input().mark = mark

    def input(self) -> Variable:
        if self.direction == Direction.FORWARD:
            return self.v1
        return self.v2

    def output(self) -> Variable:
        if self.direction == Direction.FORWARD:
            return self.v2
        return self.v1

    def recalculate(self) -> None:
        ihn = self.input()
        out = self.output()
        out.walk_strength = Strength.weakest_of(self.strength, ihn.walk_strength)
        out.stay = ihn.stay
        if out.stay:
            self.execute()

    def mark_unsatisfied(self) -> None:
        self.direction = Direction.NONE

    def inputs_known(self, mark: int) -> bool:
        i = self.input()
        return i.mark == mark or i.stay or i.determined_by is None

    def remove_from_graph(self) -> None:
        self.v1.remove_constraint(self)
        self.v2.remove_constraint(self)
        self.direction = Direction.NONE


class ScaleConstraint(BinaryConstraint):
    def __init__(self, src: Variable, scale: Variable, offset: Variable, dest: Variable, strength: Strength):
        self.direction = Direction.NONE
        self.scale = scale
        self.offset = offset
        super().__init__(src, dest, strength)

    def add_to_graph(self) -> None:
        super().add_to_graph()
        self.scale.add_constraint(self)
        self.offset.add_constraint(self)

    def remove_from_graph(self) -> None:
        super().remove_from_graph()
        self.scale.remove_constraint(self)
        self.offset.remove_constraint(self)

    def mark_inputs(self, mark: int) -> None:
        super().mark_inputs(mark)
        self.scale.mark = mark
        self.offset.mark = mark

    def execute(self) -> None:
        if self.direction == Direction.FORWARD:
            self.v2.value = self.v1.value * self.scale.value + self.offset.value
        else:
            self.v1.value = (self.v2.value - self.offset.value) / self.scale.value

    def recalculate(self) -> None:
        ihn = self.input()
        out = self.output()
        out.walk_strength = Strength.weakest_of(self.strength, ihn.walk_strength)
        out.stay = ihn.stay and self.scale.stay and self.offset.stay
        if out.stay:
            self.execute()


class EqualityConstraint(BinaryConstraint):
    def execute(self) -> None:
        self.output().value = self.input().value


class Plan:
    def __init__(self):
        self.v: list[Constraint] = []

    def add_constraint(self, c: Constraint):
        self.v.append(c)

    def execute(self):
        for c in self.v:
            c.execute()


class Planner:
    def __init__(self):
        self.current_mark = 0

    def incremental_add(self, constraint: Constraint):
        mark = self.new_mark()
        overridden = constraint.satisfy(mark)
        while overridden is not None:
            overridden = overridden.satisfy(mark)

    def incremental_remove(self, constraint: Constraint):
        out = constraint.output()
        constraint.mark_unsatisfied()
        constraint.remove_from_graph()
        unsatisfied = self.remove_propagate_from(out)
        strength = Strength.REQUIRED
        repeat = True
        while repeat:
            for u in unsatisfied:
                if u.strength == strength:
                    self.incremental_add(u)
                strength = strength.next_weaker()
            repeat = strength != Strength.WEAKEST

    def new_mark(self) -> int:
        self.current_mark += 1
        return self.current_mark

    def make_plan(self, todo: list[Constraint]) -> Plan:
        mark = self.new_mark()
        plan = Plan()
        while len(todo):
            c = todo.pop(0)
            if c.output().mark != mark and c.inputs_known(mark):
                plan.add_constraint(c)
                c.output().mark = mark
                todo.extend(self.constraints_consuming(c.output()))
        return plan

    def extract_plan_from_constraints(self, constraints: list[Constraint]) -> Plan:
        sources: list[Constraint] = []
        for c in constraints:
            if c.is_input() and c.is_satisfied():
                sources.append(c)
        return self.make_plan(sources)

    def add_propagate(self, c: Constraint, mark: int) -> bool:
        todo: list[Constraint] = [c]
        while len(todo):
            d = todo.pop(0)
            if d.output().mark == mark:
                self.incremental_remove(c)
                return False
            d.recalculate()
            todo.extend(self.constraints_consuming(d.output()))
        return True

    def remove_propagate_from(self, out: Variable) -> list[Constraint]:
        out.determined_by = None
        out.walk_strength = Strength.WEAKEST
        out.stay = True
        unsatisfied: list[Constraint] = []
        todo: list[Variable] = [out]
        while len(todo):
            v = todo.pop(0)
            for c in v.constraints:
                if not c.is_satisfied():
                    unsatisfied.append(c)
            determining = v.determined_by
            for c in v.constraints:
                if c != determining and c.is_satisfied():
                    c.recalculate()
                    todo.append(c.output())
        return unsatisfied

    def constraints_consuming(self, v: Variable) -> list[Constraint]:
        determining = v.determined_by
        return [c for c in v.constraints if c != determining and c.is_satisfied()]


planner: Optional[Planner] = None


def get_planner() -> Planner:
    assert planner is not None
    return planner


def chain_test(n: int):
    global planner
    planner = Planner()
    prev: Optional[Variable] = None
    first: Optional[Variable] = None
    last: Optional[Variable] = None
    for i in range(n + 1):
        v = Variable("v%s" % i)
        if prev is not None:
            EqualityConstraint(prev, v, Strength.REQUIRED)
        if i == 0:
            first = v
        if i == n:
            last = v
        prev = v
    assert first is not None and last is not None
    StayConstraint(last, Strength.STRONG_DEFAULT)
    edit = EditConstraint(first, Strength.PREFERRED)
    plan = get_planner().extract_plan_from_constraints([edit])
    for i in range(100):
        first.value = float(i)
        plan.execute()
        if last.value != i:
            print("Chain test failed.")


def change(v: Variable, new_value: float):
    edit = EditConstraint(v, Strength.PREFERRED)
    plan = get_planner().extract_plan_from_constraints([edit])
    for _ in range(10):
        v.value = new_value
        plan.execute()
    edit.destroy_constraint()


def projection_test(n: int):
    global planner
    planner = Planner()
    scale = Variable("scale", 10.0)
    offset = Variable("offset", 1000.0)
    src = Variable("src", 0.0)
    dst = Variable("dst", 0.0)
    dests: list[Variable] = []
    for i in range(n):
        src = Variable("src%s" % i, float(i))
        dst = Variable("dst%s" % i, float(i))
        dests.append(dst)
        StayConstraint(src, Strength.NORMAL)
        ScaleConstraint(src, scale, offset, dst, Strength.REQUIRED)
    change(src, 17.0)
    if dst.value != 1170:
        print("Projection 1 failed")
    change(dst, 1050.0)
    if src.value != 5:
        print("Projection 2 failed")
    change(scale, 5.0)
    for i in range(n - 1):
        if dests[i].value != (i * 5 + 1000):
            print("Projection 3 failed")
    change(offset, 2000.0)
    for i in range(n - 1):
        if dests[i].value != (i * 5 + 2000):
            print("Projection 4 failed")
    print(src, dst, dests[0], dests[n - 2])


N = 100  # benchmark size: 20000


def main():
    chain_test(N)
    projection_test(N)
    print("deltablue", N, "done")


if __name__ == "__main__":
    main()
