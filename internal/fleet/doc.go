// Package fleet runs a study on many devices through Ansible: it writes
// the playbook shipped with boxtax (deploy/ansible), calls ansible-playbook
// with the user's inventory, and reads the per-device summary the playbook
// leaves beside the fetched databases. It never talks to a device itself:
// connecting, copying, running and fetching are Ansible's work.
package fleet
