package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// special maps the types whose JSON comes from a custom MarshalJSON to the
// one-letter kind the decoder knows them by.
var special = map[reflect.Type]string{
	reflect.TypeFor[metav1.Time]():          "t",
	reflect.TypeFor[metav1.MicroTime]():     "T",
	reflect.TypeFor[metav1.Duration]():      "D",
	reflect.TypeFor[resource.Quantity]():    "q",
	reflect.TypeFor[intstr.IntOrString]():   "x",
	reflect.TypeFor[runtime.RawExtension](): "R",
	reflect.TypeFor[metav1.FieldsV1]():      "F",
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	typeMeta      = reflect.TypeFor[metav1.TypeMeta]()
	protoMarshal  = reflect.TypeFor[interface{ Marshal() ([]byte, error) }]()
)

// messageSet collects message specs, one string per Go type, keyed by its short name.
type messageSet struct {
	messages map[string]string
	visiting map[reflect.Type]bool
}

func newMessageSet() *messageSet {
	return &messageSet{messages: map[string]string{}, visiting: map[reflect.Type]bool{}}
}

// shortName names a Go type as "<group>/<version>.<Name>" ("core/v1.Pod", "meta/v1.ObjectMeta").
func shortName(t reflect.Type) string {
	p := t.PkgPath()
	for _, prefix := range []string{"k8s.io/api/", "k8s.io/apimachinery/pkg/apis/", "k8s.io/apimachinery/pkg/"} {
		p = strings.TrimPrefix(p, prefix)
	}
	return p + "." + t.Name()
}

func hasCustomJSON(t reflect.Type) bool {
	return t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
}

// message returns the short name of struct type t, describing it (and what it
// references) on first use.
func (s *messageSet) message(t reflect.Type) (string, error) {
	name := shortName(t)
	if _, done := s.messages[name]; done || s.visiting[t] {
		return name, nil
	}
	if hasCustomJSON(t) {
		return "", fmt.Errorf("%s has a custom JSON marshaller the decoder does not know", t)
	}
	s.visiting[t] = true
	defer delete(s.visiting, t)
	var fields []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		spec, err := s.field(f)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", name, f.Name, err)
		}
		if spec != "" {
			fields = append(fields, spec)
		}
	}
	s.messages[name] = strings.Join(fields, ";")
	return name, nil
}

// wrapper describes a named slice type that protobuf wraps in a message
// (`message ExtraValue { repeated string items = 1; }`) and JSON writes as a plain array.
func (s *messageSet) wrapper(t reflect.Type) (string, error) {
	name := shortName(t)
	elem, err := s.kind(t.Elem())
	if err != nil {
		return "", err
	}
	s.messages[name] = "=" + elem
	return name, nil
}

// field returns "num,jsonName,flags,type" for one struct field, or "" when the
// field is not on the wire (TypeMeta, `json:"-"`).
func (s *messageSet) field(f reflect.StructField) (string, error) {
	jsonTag := f.Tag.Get("json")
	if jsonTag == "-" || !f.IsExported() {
		return "", nil
	}
	protoTag := f.Tag.Get("protobuf")
	if protoTag == "" {
		if f.Type == typeMeta {
			return "", nil
		}
		return "", fmt.Errorf("field has no protobuf tag")
	}
	parts := strings.Split(protoTag, ",")
	num, err := strconv.Atoi(parts[1])
	if err != nil {
		return "", fmt.Errorf("protobuf tag %q: %w", protoTag, err)
	}
	// The tag's wire type (parts[0]) is not trusted: some tags are wrong
	// (ListMeta.remainingItemCount says bytes). The generated code writes each
	// Go kind one way, which the decoder expects, and it fails on any other.
	opts := strings.Split(jsonTag, ",")
	jsonName := opts[0]
	if jsonName == "" {
		jsonName = f.Name
	}
	flags := ""
	for _, o := range opts[1:] {
		switch o {
		case "omitempty":
			flags += "o"
		case "omitzero":
			flags += "z"
		case "inline":
			if !f.Anonymous {
				return "", fmt.Errorf("inline on a named field")
			}
		}
	}
	t := f.Type
	if f.Anonymous && t.Kind() == reflect.Struct && opts[0] == "" {
		ref, err := s.message(t)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d,,i,%s", num, ref), nil
	}
	if t.Kind() == reflect.Pointer {
		flags += "p"
		t = t.Elem()
	}
	var typ string
	switch {
	case special[t] != "":
		typ = special[t]
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		typ, flags = "y", flags+"n"
	case t.Kind() == reflect.Slice && t.Implements(protoMarshal):
		typ, err = s.wrapper(t)
		flags += "n"
	case t.Kind() == reflect.Slice:
		typ, err = s.kind(t.Elem())
		flags += "rn"
	case t.Kind() == reflect.Map:
		typ, err = s.mapType(t)
		flags += "n"
	default:
		typ, err = s.kind(t)
	}
	if err != nil {
		return "", err
	}
	// omitzero omits a zero struct; the decoder can only tell a zero
	// Time/MicroTime (null) apart, so any other struct with it is refused.
	if strings.Contains(flags, "z") && !strings.ContainsAny(flags, "pn") && strings.Contains(typ, ".") {
		return "", fmt.Errorf("omitzero on a struct is not supported")
	}
	return fmt.Sprintf("%d,%s,%s,%s", num, jsonName, flags, typ), nil
}

func (s *messageSet) mapType(t reflect.Type) (string, error) {
	if t.Key().Kind() != reflect.String || hasCustomJSON(t.Key()) {
		return "", fmt.Errorf("map key %s is not a plain string", t.Key())
	}
	v := t.Elem()
	var val string
	var err error
	switch {
	case v.Kind() == reflect.Slice && v.Elem().Kind() == reflect.Uint8:
		val = "y"
	case v.Kind() == reflect.Slice && v.Implements(protoMarshal):
		val, err = s.wrapper(v)
	default:
		val, err = s.kind(v)
	}
	if err != nil {
		return "", err
	}
	return "M" + val, nil
}

// kind names a scalar kind by one letter, or a message by its short name.
func (s *messageSet) kind(t reflect.Type) (string, error) {
	if k := special[t]; k != "" {
		return k, nil
	}
	if t.Kind() != reflect.Struct && hasCustomJSON(t) {
		return "", fmt.Errorf("%s has a custom JSON marshaller the decoder does not know", t)
	}
	switch t.Kind() {
	case reflect.String:
		return "s", nil
	case reflect.Bool:
		return "b", nil
	case reflect.Int32:
		return "i", nil
	case reflect.Int64, reflect.Int:
		return "I", nil
	case reflect.Uint32:
		return "u", nil
	case reflect.Uint64:
		return "U", nil
	case reflect.Float64:
		return "d", nil
	case reflect.Struct:
		return s.message(t)
	}
	return "", fmt.Errorf("unsupported Go kind %s (%s)", t.Kind(), t)
}

// sortedKeys returns the keys of m in order, for a stable output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
