package settings

import (
	"errors"
	"fmt"
	"reflect"
)

// errNoSettings means the core offers no per-capability settings (the
// engine's SettingValue/SetSetting have not landed in this build).
var errNoSettings = errors.New("This build of Wrasse keeps no per-capability settings yet, so these controls stay inert")

// setting is one per-capability setting as the pages use it.
type setting struct {
	Key   string
	Value string
}

// capSettings reads a capability's settings from the core.
//
// PENDING(engine): the core documents Settings(name)
// ([]cerebellum.SettingValue, error) and SetSetting(name, key, value);
// they are being added to the engine. Until cerebellum.SettingValue
// exists this adapter finds the methods at run time and reads the Key and
// Value fields by name, so the pages work the day it lands. Then replace
// the body with a direct call and this file's reflection goes.
func capSettings(core any, name string) ([]setting, error) {
	m := reflect.ValueOf(core).MethodByName("Settings")
	if !m.IsValid() || m.Type().NumIn() != 1 || m.Type().NumOut() != 2 {
		return nil, errNoSettings
	}
	out := m.Call([]reflect.Value{reflect.ValueOf(name)})
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, err
	}
	list := out[0]
	if list.Kind() != reflect.Slice {
		return nil, errNoSettings
	}
	res := make([]setting, 0, list.Len())
	for i := range list.Len() {
		v := reflect.Indirect(list.Index(i))
		if v.Kind() != reflect.Struct {
			return nil, errNoSettings
		}
		res = append(res, setting{Key: field(v, "Key", "Name"), Value: field(v, "Value")})
	}
	return res, nil
}

// setCapSetting stores one setting through the core.
func setCapSetting(core any, name, key, value string) error {
	s, ok := core.(interface {
		SetSetting(name, key, value string) error
	})
	if !ok {
		return errNoSettings
	}
	return s.SetSetting(name, key, value)
}

// field is the text of the first of names that v has.
func field(v reflect.Value, names ...string) string {
	for _, n := range names {
		if f := v.FieldByName(n); f.IsValid() && f.CanInterface() {
			if s, ok := f.Interface().(fmt.Stringer); ok {
				return s.String()
			}
			return fmt.Sprint(f.Interface())
		}
	}
	return ""
}
